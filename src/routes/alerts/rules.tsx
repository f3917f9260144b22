import { createFileRoute } from '@tanstack/react-router';
import { rulesQueryOptions } from '@/features/alerts/api';
import { RulesScreen } from '@/features/alerts/rules-screen';

export const Route = createFileRoute('/alerts/rules')({
  loader: ({ context }) => void context.queryClient.query(rulesQueryOptions()).catch(() => undefined),
  component: RulesScreen,
});
