import { createFileRoute } from '@tanstack/react-router';
import { AccessReviewScreen } from '@/features/access-review/access-review-screen';
import { AccessReviewSearch, filtersOf, searchOf } from '@/features/access-review/search';

export const Route = createFileRoute('/access-review/')({
  validateSearch: AccessReviewSearch,
  component: function AccessReviewRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <AccessReviewScreen filters={filtersOf(search)} onFiltersChange={(f) => void navigate({ search: searchOf(f) })} />
    );
  },
});
