import { createFileRoute } from '@tanstack/react-router';
import { doctorStateQueryOptions } from '@/features/doctor/api';
import { DoctorScreen } from '@/features/doctor/doctor-screen';

export const Route = createFileRoute('/doctor/')({
  loader: ({ context }) => void context.queryClient.query(doctorStateQueryOptions()).catch(() => undefined),
  component: DoctorScreen,
});
