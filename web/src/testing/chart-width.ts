// jsdom lays nothing out: a chart reads its container's computed width as
// the "100%" of its style, 100 px, too narrow for a chart with an axis on
// each side to draw a bar. Call this at the top of a describe whose charts
// must draw: their containers then measure `px` wide.
import { beforeEach, vi } from 'vitest';

const CONTAINER = 'MuiChartsSurface-root';

export function giveChartsWidth(px: number): void {
  beforeEach(() => {
    const computed = window.getComputedStyle.bind(window);
    vi.spyOn(window, 'getComputedStyle').mockImplementation((element, pseudo) => {
      const style = computed(element, pseudo);
      if (!element.classList.contains(CONTAINER)) return style;
      return new Proxy(style, {
        get: (target, property) => {
          if (property === 'width') return `${String(px)}px`;
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    });
  });
}
