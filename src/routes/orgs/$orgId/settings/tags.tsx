import { createFileRoute } from '@tanstack/react-router';
import { TagSettings } from '@/features/org-tags/tags-settings';
import { SettingsHistory } from '@/features/organizations/settings-history';
import { allowedTagsQueryOptions, defaultTagQueryOptions } from '@/lib/org-tags';

export const Route = createFileRoute('/orgs/$orgId/settings/tags')({
  loader: ({ context, params }) => {
    void context.queryClient.query(allowedTagsQueryOptions(params.orgId)).catch(() => undefined);
    void context.queryClient.query(defaultTagQueryOptions(params.orgId)).catch(() => undefined);
  },
  component: function TagSettingsRoute() {
    const { orgId } = Route.useParams();
    return (
      <TagSettings
        orgId={orgId}
        history={<SettingsHistory title="History of the tag settings" filter={{ kind: ['org-tags'], key: orgId }} />}
      />
    );
  },
});
