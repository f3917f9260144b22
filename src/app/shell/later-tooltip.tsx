/**
 * The shell's tooltips (src/components/ui/tooltip.tsx, Radix Tooltip and its positioning library, ~15 KB
 * compressed) without their code on the first screen: the control shows at once, bare, and gains its tooltip
 * when the browser is idle after the first render. What a tooltip says is never said only there (the control's
 * name or description says it too), so the bare control loses nothing but the hover hint meanwhile. The control
 * is rendered anew when the tooltip wraps it: if it had focus then, it gets it back.
 */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentProps } from 'react';
import { whenIdle } from './idle';

const Tooltip = lazy(() => import('@/components/ui/tooltip').then((m) => ({ default: m.Tooltip })));

export function LaterTooltip({ children, ...props }: ComponentProps<typeof Tooltip>) {
  const [wrap, setWrap] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  const hadFocus = useRef(false);
  useEffect(
    () =>
      whenIdle(() => {
        hadFocus.current = box.current?.contains(document.activeElement) ?? false;
        setWrap(true);
      }),
    [],
  );
  useLayoutEffect(() => {
    if (!hadFocus.current) return;
    const control = box.current?.querySelector<HTMLElement>('a, button, [tabindex]');
    if (control && !box.current?.contains(document.activeElement)) control.focus();
  });
  return (
    <span ref={box} className="contents">
      {wrap ? (
        <Suspense fallback={children}>
          <Tooltip {...props}>{children}</Tooltip>
        </Suspense>
      ) : (
        children
      )}
    </span>
  );
}
