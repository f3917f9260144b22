/** Switches every time on screen between relative ("5 min ago") and absolute (local date and time). */
import { Clock } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { setTimeDisplay, useTimeDisplay } from '@/lib/time-display';

export function TimeToggle() {
  const display = useTimeDisplay();
  const next = display === 'relative' ? 'absolute' : 'relative';
  return (
    <Button
      size="icon"
      title={display === 'relative' ? 'Times: relative' : 'Times: absolute'}
      aria-label={`Times are ${display} (show ${next} times)`}
      aria-pressed={display === 'absolute'}
      onClick={() => setTimeDisplay(next)}
    >
      <Clock className="size-4" aria-hidden />
    </Button>
  );
}
