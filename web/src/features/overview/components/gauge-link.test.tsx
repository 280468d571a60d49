import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../../../testing/render.tsx';
import { GaugeLink } from './gauge-link.tsx';

/** The share of the ring the value's arc covers, or null when none is drawn. */
function filledShare(container: HTMLElement): number | null {
  const [ring, value, ...rest] = Array.from(container.querySelectorAll('svg circle'));
  expect(rest).toEqual([]);
  if (!ring) throw new Error('no ring');
  if (!value) return null;
  const circumference = 2 * Math.PI * Number(ring.getAttribute('r'));
  const [drawn, gap] = (value.getAttribute('stroke-dasharray') ?? '').split(' ').map(Number);
  expect(gap).toBeCloseTo(circumference);
  expect(value.getAttribute('transform')).toBe('rotate(-90 70 70)');
  return (drawn ?? Number.NaN) / circumference;
}

function renderGauge(percent: number) {
  return renderWithProviders(
    <GaugeLink label="Healthy Meters" to="/water-meters" value="3" percent={percent} colour="success" accessibleName="Healthy Meters: 3" testId="gauge" />,
  );
}

describe('GaugeLink', () => {
  it.each([
    [66.7, 0.667],
    [100, 1],
    [150, 1],
  ])('fills %s % of its ring from twelve o\'clock', (percent, share) => {
    const { container } = renderGauge(percent);
    expect(filledShare(container)).toBeCloseTo(share, 5);
  });

  it.each([0, -5])('draws only the ring at %s %', (percent) => {
    const { container } = renderGauge(percent);
    expect(filledShare(container)).toBeNull();
  });

  it('keeps the arc out of what a screen reader hears', () => {
    const { container, getByRole } = renderGauge(50);
    expect(container.querySelector('svg')?.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(getByRole('link', { name: 'Healthy Meters: 3' })).toHaveAttribute('href', '/water-meters');
  });
});
