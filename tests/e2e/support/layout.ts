import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Asserts the element is shown whole without scrolling sideways: it lies across no edge of a viewport
 * `width` wide, nor of a box around it that clips what overflows (a table that scrolls sideways).
 */
export async function insideWidth(element: Locator, width: number): Promise<void> {
  await element.waitFor();
  const box = await element.boundingBox();
  expect(box, 'the element has a box').not.toBeNull();
  if (!box) return;
  expect(box.width).toBeGreaterThan(0);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  const clip = await element.evaluate((el) => {
    let left = 0;
    let right = Number.POSITIVE_INFINITY;
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const r = a.getBoundingClientRect();
      left = Math.max(left, r.left);
      right = Math.min(right, r.right);
    }
    return { left, right };
  });
  expect(box.x, 'the left edge shows without scrolling sideways').toBeGreaterThanOrEqual(clip.left - 0.5);
  expect(box.x + box.width, 'the right edge shows without scrolling sideways').toBeLessThanOrEqual(clip.right + 0.5);
}
