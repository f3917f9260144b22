/**
 * A document's access type, enterprise-wide or one organization's: its badge in lists and on its page, and the
 * list filter for it (on the enterprise's lists, which show both).
 */
import { Badge } from '../badge';
import { FilterSelect } from '../filter-select';

export type DocumentAccessType = 'enterprise' | 'org';

export function AccessBadge({ document }: { document: { access_type: DocumentAccessType; org_id?: string | null } }) {
  return document.access_type === 'enterprise' ? (
    <Badge tone="accent">Enterprise</Badge>
  ) : (
    <Badge tone="info" title={document.org_id ?? undefined}>
      Organization
    </Badge>
  );
}

const ACCESS_OPTIONS = [
  { value: '', label: 'All access types' },
  { value: 'enterprise', label: 'Enterprise' },
  { value: 'org', label: 'Organization' },
];

export function AccessTypeFilter({
  value,
  onChange,
}: {
  value: DocumentAccessType | undefined;
  onChange: (value: DocumentAccessType | undefined) => void;
}) {
  return (
    <FilterSelect
      className="w-44"
      label="Access type"
      value={value ?? ''}
      options={ACCESS_OPTIONS}
      onValueChange={(v) => onChange(v === 'enterprise' || v === 'org' ? v : undefined)}
    />
  );
}
