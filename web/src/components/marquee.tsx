import { MARQUEE_SPEED } from '@wa/shared';
import { useEffect, useRef } from 'react';

/**
 * Text that scrolls from right to left at `speed` pixels per second (§9: 50), pausing while the
 * pointer is on it. With "reduce motion" asked for, the text stands still and wraps.
 */
export function Marquee({ text, speed = MARQUEE_SPEED }: { text: string; speed?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const line = useRef<HTMLSpanElement>(null);
  const animation = useRef<Animation | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text has a new width, so the run starts again
  useEffect(() => {
    const outer = box.current;
    const inner = line.current;
    if (!outer || !inner || typeof inner.animate !== 'function') return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    let width = -1;
    const start = () => {
      if (outer.clientWidth === width) return;
      width = outer.clientWidth;
      animation.current?.cancel();
      // enter at the right edge, leave past the left edge: the distance sets the duration
      const distance = width + inner.scrollWidth;
      animation.current = inner.animate(
        [{ transform: `translateX(${width}px)` }, { transform: `translateX(${-inner.scrollWidth}px)` }],
        { duration: (distance / speed) * 1000, iterations: Number.POSITIVE_INFINITY },
      );
    };
    start();
    const observer = new ResizeObserver(start);
    observer.observe(outer);
    return () => {
      observer.disconnect();
      animation.current?.cancel();
      animation.current = null;
    };
  }, [text, speed]);

  const pause = () => animation.current?.pause();
  const play = () => animation.current?.play();
  return (
    <div
      ref={box}
      role="marquee"
      className="overflow-hidden whitespace-nowrap motion-reduce:whitespace-normal"
      data-testid="marquee"
      data-speed={speed}
      onMouseEnter={pause}
      onMouseLeave={play}
    >
      <span ref={line} className="inline-block will-change-transform motion-reduce:inline">
        {text}
      </span>
    </div>
  );
}
