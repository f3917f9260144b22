/** Words for a rule's condition and state, as the rules list and the notifications say them. */
import { ALERT_KIND_LABELS, WATCHED_SETTING_LABELS, type AlertRule, type AlertRuleKind } from '@/api/console/alerts';
import { formatNumber } from '@/lib/format';

export function kindLabel(kind: string): string {
  return ALERT_KIND_LABELS[kind as AlertRuleKind] ?? kind;
}

/** "When 80 % of the cycle's ACU limit is forecast in Acme", in the form's own words. */
export function conditionOf(rule: AlertRule, orgName: (id: string) => string): string {
  const where = rule.org_id ? ` in ${orgName(rule.org_id)}` : '';
  switch (rule.kind) {
    case 'consumption':
      return `${rule.consumption_mode === 'forecast' ? 'Forecast to reach' : 'Reaches'} ${rule.threshold_percent ?? '?'} % of the cycle's ACU limit${rule.org_id ? where : ' (enterprise)'}`;
    case 'guardrail_violations':
      return `More than ${formatNumber(rule.violations_per_day ?? 0)} violations in a day${where || ' in any organization'}`;
    case 'session_stuck':
      return `A session ${rule.session_statuses.join(' or ')} for more than ${formatNumber(rule.duration_minutes ?? 0)} minutes${where}`;
    case 'schedule_failed':
      return `A scheduled run fails${where || ' in any organization'}`;
    case 'settings_changed':
      return `Any change to ${rule.settings.map((s) => WATCHED_SETTING_LABELS[s]).join(', ')}`;
    case 'doctor_refused':
      return 'The doctor finds an operation refused that was allowed';
    default:
      return kindLabel(rule.kind);
  }
}
