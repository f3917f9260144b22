import { createFileRoute } from '@tanstack/react-router';
import { PlaybookForm } from '@/features/playbooks/playbook-form';

export const Route = createFileRoute('/playbooks/new')({
  component: () => <PlaybookForm scope={{ kind: 'enterprise' }} />,
});
