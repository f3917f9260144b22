/**
 * An organization's session tags: whether tags are validated, the allowed list (add, remove one, replace the
 * whole list) and the default tag given to sessions created without tags. Validation is on while the allowed
 * list is not empty (the API has no separate switch): turning it off clears the list, behind a confirmation;
 * turning it on asks for the first allowed tags.
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DefaultTagBody } from '@/api/operations/org-tags';
import { SESSION_LIMITS } from '@/api/operations/sessions';
import { Form, SelectField, SubmitButton, TextField } from '@/components/form';
import { PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { allowedTagsQueryOptions, defaultTagQueryOptions } from '@/lib/org-tags';
import { organizationQueryOptions } from '@/lib/organizations';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { AllowedTagsSection } from './allowed-tags';
import { useSetDefaultTag } from './api';

export function TagSettings({
  orgId,
  history,
}: {
  orgId: string;
  /** The history of the tag settings, composed by the route. */ history?: ReactNode;
}) {
  const org = useQuery(organizationQueryOptions(orgId));
  const allowed = useQuery(allowedTagsQueryOptions(orgId));
  const defaultTag = useQuery(defaultTagQueryOptions(orgId));
  const title = 'Session tags';
  return (
    <>
      <PageHeader
        title={title}
        documentTitle={org.data ? `${title} · ${org.data.name}` : title}
        description="Which tags sessions of this organization may carry, and the tag a session gets when created without any."
      />
      {allowed.error ? (
        <ProblemView error={allowed.error} onRetry={() => void allowed.refetch()} />
      ) : !allowed.data ? (
        <Spinner label="Loading the tag settings…" />
      ) : (
        <div className="flex max-w-3xl flex-col gap-8">
          <AllowedTagsSection orgId={orgId} tags={allowed.data.tags} />
          <DefaultTagSection
            orgId={orgId}
            allowed={allowed.data.tags}
            current={defaultTag.data?.default_tag ?? null}
            error={defaultTag.error}
          />
        </div>
      )}
      {history && <div className="mt-8">{history}</div>}
    </>
  );
}

function DefaultTagSection({
  orgId,
  allowed,
  current,
  error,
}: {
  orgId: string;
  allowed: string[];
  current: string | null;
  error: unknown;
}) {
  const can = useHasPermission('ManageOrganizations');
  const denied = missingPermissionTitle('ManageOrganizations', can);
  const set = useSetDefaultTag(orgId);
  const validated = allowed.length > 0;
  return (
    <section aria-labelledby="default-heading" className="flex flex-col gap-3">
      <h2 id="default-heading" className="text-base font-semibold">
        Default tag
      </h2>
      <p className="text-sm text-muted">
        {current === null
          ? 'None: sessions created without tags carry none.'
          : `Sessions created without tags get “${current}”.`}
      </p>
      {error ? <ProblemView compact error={error} /> : null}
      <Form
        key={`${current ?? ''}|${allowed.join(',')}`}
        schema={DefaultTagBody}
        defaultValues={{ tag: current ?? '' }}
        aria-label="Default tag"
        className="gap-2"
        onSubmit={async (body) => {
          const res = await set.mutateAsync(body.tag);
          toast({ title: `Default tag set to “${res.default_tag ?? ''}”`, tone: 'success' });
        }}
        actions={
          <div className="flex gap-2">
            <SubmitButton pendingLabel="Saving…" disabled={can === false} title={denied}>
              Set default tag
            </SubmitButton>
            <Button
              disabled={current === null || set.isPending || can === false}
              title={denied}
              onClick={() =>
                set.mutate(null, { onSuccess: () => toast({ title: 'Default tag cleared', tone: 'success' }) })
              }
            >
              Clear default tag
            </Button>
          </div>
        }
      >
        {validated ? (
          <SelectField
            name="tag"
            label="Default tag"
            description="Validation is on: the default must be one of the allowed tags."
            placeholder="Choose an allowed tag"
            options={allowed.map((t) => ({ value: t, label: t }))}
          />
        ) : (
          <TextField name="tag" label="Default tag" description={`1–${SESSION_LIMITS.tag} characters, no commas.`} />
        )}
      </Form>
    </section>
  );
}
