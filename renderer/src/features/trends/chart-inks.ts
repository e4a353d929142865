import { type RefObject, useEffect, useState } from 'react';
import { INKS } from './series-style.ts';

/**
 * What a canvas chart draws with, read from the design tokens where the chart is: a canvas does not follow
 * CSS, so the colours of the scheme in force (light, dark, or the system's forced colours, which
 * forced-colors.css maps the tokens to) are read as the browser resolves them, and read again on a change.
 */
export interface ChartInks {
  /** --color-chart-1…6. */
  series: string[];
  text: string;
  grid: string;
  canvas: string;
  font: string;
}

function readInks(host: HTMLElement): ChartInks {
  const probe = document.createElement('span');
  // The token's own value: in forced colours the browser would otherwise force the probe to the text's colour.
  probe.style.forcedColorAdjust = 'none';
  host.append(probe);
  const resolve = (token: string) => {
    probe.style.color = `var(${token})`;
    return getComputedStyle(probe).color;
  };
  try {
    return {
      series: Array.from({ length: INKS }, (_, n) => resolve(`--color-chart-${n + 1}`)),
      text: resolve('--color-text-muted'),
      grid: resolve('--color-border-subtle'),
      canvas: resolve('--color-canvas'),
      font: getComputedStyle(host).fontFamily,
    };
  } finally {
    probe.remove();
  }
}

/** What changes the inks: the system's scheme, and forced colours turned on or off. */
const SCHEME_QUERIES = ['(prefers-color-scheme: dark)', '(forced-colors: active)'];

/** The inks where `host` is, read once it is on the page and again whenever the scheme changes. */
export function useInks(host: RefObject<HTMLElement | null>): ChartInks | null {
  const [inks, setInks] = useState<ChartInks | null>(null);
  useEffect(() => {
    const read = () => {
      if (host.current) setInks(readInks(host.current));
    };
    read();
    const queries = SCHEME_QUERIES.map((query) => window.matchMedia(query));
    for (const query of queries) query.addEventListener('change', read);
    return () => {
      for (const query of queries) query.removeEventListener('change', read);
    };
  }, [host]);
  return inks;
}

/** The width `host` has on the page, followed as the window or the layout changes it. */
export function useWidth(host: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [host]);
  return width;
}
