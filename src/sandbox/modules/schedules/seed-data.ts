/** Realistic schedules for the sandbox seed: what an engineering organization asks its agents to do routinely. */
import type { NotifyOn } from '../../../api/operations/schedules';
import type { PLAYBOOKS } from '../sessions/seed-data';

export interface ScheduleTemplate {
  name: string;
  prompt: string;
  frequency: string;
  notify_on: NotifyOn;
  playbook?: (typeof PLAYBOOKS)[number];
  tags?: string[];
}

export const RECURRING_SCHEDULES: ScheduleTemplate[] = [
  {
    name: 'Weekday issue triage',
    prompt:
      'Triage every issue opened since the last run: label it, set a severity for bugs, close duplicates, and post a summary in #eng-triage.',
    frequency: '0 9 * * 1-5',
    notify_on: 'failure',
    tags: ['triage'],
  },
  {
    name: 'Nightly dependency upgrades',
    prompt:
      'Check every service for outdated dependencies. Open one pull request per service with the patch and minor upgrades that pass the test suite.',
    frequency: '0 2 * * *',
    notify_on: 'failure',
    playbook: 'playbook-dependency-upgrade',
    tags: ['dependencies'],
  },
  {
    name: 'Weekly flaky test sweep',
    prompt: 'Find the five flakiest tests of the last week in CI and fix the cause of each; never add retries.',
    frequency: '30 6 * * 1',
    notify_on: 'always',
    playbook: 'playbook-flaky-test',
    tags: ['tests'],
  },
  {
    name: 'Security advisories check',
    prompt:
      'Check the security advisories published since yesterday against our lockfiles and patch every high or critical one that affects us.',
    frequency: '0 7 * * *',
    notify_on: 'always',
    playbook: 'playbook-security-patch',
    tags: ['security'],
  },
  {
    name: 'Hourly error digest',
    prompt:
      'Read the error logs of the last hour, group the new errors by cause, and open an issue for each new cause with a stack trace and the first occurrence.',
    frequency: '15 * * * *',
    notify_on: 'failure',
  },
  {
    name: 'Monthly docs freshness review',
    prompt:
      'Find documentation pages that describe behaviour changed by pull requests merged last month and update them.',
    frequency: '0 8 1 * *',
    notify_on: 'never',
    playbook: 'playbook-docs',
    tags: ['docs'],
  },
  {
    name: 'Friday release notes draft',
    prompt: 'Draft the release notes from the pull requests merged this week, grouped by Features, Fixes and Internal.',
    frequency: '0 15 * * 5',
    notify_on: 'always',
  },
];

export const ONE_TIME_SCHEDULES: Array<Omit<ScheduleTemplate, 'frequency'>> = [
  {
    name: 'Remove the legacy checkout flag',
    prompt:
      'The new checkout has been at 100 % for a month: remove the legacy_checkout feature flag, its dead code paths and its tests.',
    notify_on: 'always',
  },
  {
    name: 'Rotate staging database credentials',
    prompt: 'Rotate the staging database credentials and update the secrets of every service that uses them.',
    notify_on: 'failure',
  },
];

export const SCHEDULE_ERRORS = [
  'The test suite failed after the changes: 3 failing tests in checkout/cart.spec.ts.',
  'Could not push the branch: the repository rejected the push (protected branch).',
  'The build timed out after 45 minutes.',
];
