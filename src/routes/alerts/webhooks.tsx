import { createFileRoute } from '@tanstack/react-router';
import { webhooksQueryOptions } from '@/features/alerts/api';
import { WebhooksScreen } from '@/features/alerts/webhooks-screen';

export const Route = createFileRoute('/alerts/webhooks')({
  loader: ({ context }) => void context.queryClient.query(webhooksQueryOptions()).catch(() => undefined),
  component: WebhooksScreen,
});
