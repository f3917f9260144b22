/**
 * Creating a secret: type, key, value, sensitivity and note, over the contract's create schema (the same limits
 * and rules the API enforces: a non-empty key and value, a TOTP seed for TOTP, no dictionary). The value is typed
 * into a write-only field (masked, no autocomplete) that the form kit clears once the secret is stored; it is
 * never shown again, here or anywhere. A taken key (409) lands on the key field.
 */
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import {
  CreateSecretBody,
  SECRET_LIMITS,
  SECRET_TYPE_LABELS,
  SECRET_TYPES,
  type SecretType,
} from '@/api/operations/secrets';
import {
  CheckboxField,
  Form,
  SecretField,
  SelectField,
  SubmitButton,
  TextareaField,
  TextField,
} from '@/components/form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import { useCreateSecret } from './api';

interface CreateSecretValues {
  type: SecretType;
  key: string;
  value: string;
  is_sensitive: boolean;
  note: string;
}

const EMPTY: CreateSecretValues = { type: 'key-value', key: '', value: '', is_sensitive: true, note: '' };

function toBody(v: CreateSecretValues): CreateSecretBody {
  return {
    type: v.type,
    key: v.key,
    value: v.value,
    is_sensitive: v.is_sensitive,
    ...(v.note.trim() ? { note: v.note } : {}),
  };
}

const KEY_HINT: Record<SecretType, string> = {
  'key-value': 'The name the agent knows it by, e.g. GITHUB_TOKEN.',
  cookie: 'The site the cookie is for, e.g. staging.example.com.',
  totp: 'What the one-time codes are for, e.g. AWS_CONSOLE_MFA.',
};

const VALUE_HINT: Record<SecretType, string> = {
  'key-value': 'The secret itself.',
  cookie: 'The cookie header value, e.g. session=…; csrftoken=….',
  totp: 'The base32 seed (16+ characters A–Z, 2–7) or an otpauth://totp/ URI.',
};

function TypedHints() {
  const type = (useWatch({ name: 'type' }) as SecretType | undefined) ?? 'key-value';
  return (
    <>
      <TextField
        name="key"
        label="Key"
        description={`${KEY_HINT[type]} Unique in this organization; 1–${SECRET_LIMITS.key} characters.`}
        autoComplete="off"
        inputClassName="font-mono"
      />
      <SecretField
        name="value"
        label="Value"
        description={`${VALUE_HINT[type]} Write-only: it is never shown again, here or through the API. At most ${formatNumber(SECRET_LIMITS.value)} characters.`}
      />
    </>
  );
}

export function CreateSecretButton({ orgId, disabled, title }: { orgId: string; disabled?: boolean; title?: string }) {
  const [open, setOpen] = useState(false);
  const create = useCreateSecret(orgId);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) create.reset();
      }}
    >
      <Button variant="primary" disabled={disabled} title={title} onClick={() => setOpen(true)}>
        <Plus className="size-4" aria-hidden /> New secret
      </Button>
      <DialogContent className="w-[min(94vw,36rem)]">
        <DialogTitle>New secret</DialogTitle>
        <DialogDescription>
          Agents of this organization can use it in their sessions. Nobody can read its value back.
        </DialogDescription>
        {open && (
          <Form
            schema={CreateSecretBody}
            defaultValues={EMPTY}
            toBody={toBody}
            aria-label="New secret"
            className="mt-4"
            onSubmit={async (body) => {
              const secret = await create.mutateAsync(body);
              toast({ title: `Secret ${secret.key ?? ''} created`, tone: 'success' });
              setOpen(false);
            }}
            actions={
              <div className="flex justify-end gap-2">
                <DialogClose asChild>
                  <Button>Cancel</Button>
                </DialogClose>
                <SubmitButton pendingLabel="Creating…">Create secret</SubmitButton>
              </div>
            }
          >
            <SelectField
              name="type"
              label="Type"
              description="Dictionary secrets are deprecated: existing ones are listed, new ones cannot be made."
              options={SECRET_TYPES.map((t) => ({ value: t, label: SECRET_TYPE_LABELS[t] }))}
            />
            <TypedHints />
            <CheckboxField
              name="is_sensitive"
              label="Sensitive"
              description="Agents keep a sensitive value out of their messages and logs."
            />
            <TextareaField
              name="note"
              label="Note"
              description="Optional: what it is for, who owns it."
              rows={2}
              textareaClassName="min-h-9"
            />
          </Form>
        )}
      </DialogContent>
    </Dialog>
  );
}
