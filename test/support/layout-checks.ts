/**
 * What the browser suites measure of a page's layout and accessibility, each
 * an evaluation in the page: whether it scrolls sideways, the touch targets
 * smaller than 44×44 CSS px, axe-core's serious and critical violations, and
 * whether an element lies inside the viewport. Each returns plain data (a
 * problem a line), for a test to collect over many routes and compare with [].
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** axe-core's browser build (the npm package axe-core). */
export const AXE_SCRIPT = path.join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js');

/** The smallest touch target on a phone (WCAG 2.5.5), in CSS px. */
export const MIN_TARGET = 44;

/** How far the page is wider than the screen: scrollWidth over innerWidth, in px (0: no sideways scroll). */
export async function sidewaysScroll(page: Page): Promise<{ excess: number; widest: string[] }> {
  return page.evaluate(() => {
    const w = globalThis as any;
    const doc = w.document;
    const excess = doc.documentElement.scrollWidth - w.innerWidth;
    // When it does scroll, the elements that reach past the screen's edges, to name in the failure.
    const widest: string[] = [];
    if (excess > 0) {
      for (const el of doc.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || (r.right <= w.innerWidth + 0.5 && r.left >= -0.5)) continue;
        // Only the outermost offender of a chain: its parent fits.
        const p = el.parentElement?.getBoundingClientRect();
        if (p && (p.right > w.innerWidth + 0.5 || p.left < -0.5)) continue;
        widest.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} [${Math.round(r.left)}..${Math.round(r.right)}]`,
        );
        if (widest.length >= 5) break;
      }
    }
    return { excess, widest };
  });
}

/**
 * The visible targets (buttons, links, form controls, summaries, tabs) smaller
 * than `min` CSS px in either direction, as `tag#id.class "text" w×h`. A
 * link set inline in running text is exempt (WCAG's "inline" exception: a
 * line of text fixes its height), as are controls inside an SVG (the
 * analysis chart's marks: the replay's step buttons reach the same events).
 * A checkbox or radio button counts by its label when it has one, around it
 * or naming it by `for` (a click on the label is a click on it).
 */
export async function smallTargets(page: Page, min = MIN_TARGET): Promise<string[]> {
  return page.evaluate((least) => {
    const w = globalThis as any;
    const doc = w.document;
    const SELECTOR = 'button, a[href], [role="button"], [role="tab"], select, input:not([type="hidden"]), textarea, summary';
    const isInline = (el: any) => w.getComputedStyle(el).display === 'inline';
    /** The element's nearest ancestor that is not inline: the line of text it sits in. */
    const blockOf = (el: any) => {
      let b = el.parentElement;
      while (b && isInline(b)) b = b.parentElement;
      return b;
    };
    /** Letters or digits in the block beside those of targets: running text. */
    const inRunningText = (el: any) => {
      const block = blockOf(el);
      if (!block) return false;
      const copy = block.cloneNode(true);
      for (const t of copy.querySelectorAll('a, button, select, input, textarea, [role="button"], .badge')) t.remove();
      return /[\p{L}\p{N}]{2,}/u.test(copy.textContent ?? '');
    };
    const visible = (el: any) => {
      if (el.closest('[hidden], svg')) return false;
      const style = w.getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const out: string[] = [];
    for (const el of doc.querySelectorAll(SELECTOR)) {
      if (!visible(el)) continue;
      if (el.tagName === 'A' && isInline(el) && inRunningText(el)) continue;
      const type = el.getAttribute('type');
      const label = el.closest('label') ?? (el.id ? doc.querySelector(`label[for="${el.id}"]`) : null);
      const target = (type === 'checkbox' || type === 'radio') && label ? label : el;
      const r = target.getBoundingClientRect();
      if (r.width >= least - 0.01 && r.height >= least - 0.01) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
      const text = (el.textContent || el.getAttribute('aria-label') || el.getAttribute('placeholder') || '').trim().replace(/\s+/g, ' ').slice(0, 30);
      out.push(`${name} "${text}" ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    }
    return out;
  }, min);
}

let axeSource: string | undefined;

/** axe-core's violations of impact serious or critical on the page as it is, one line a node: `rule-id (impact) target: summary`. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a script tag: the service's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => typeof (globalThis as any).axe !== 'undefined'))) await page.evaluate((axeSource ??= readFileSync(AXE_SCRIPT, 'utf8')));
  return page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const results = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    const out: string[] = [];
    for (const v of results.violations as any[]) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      for (const node of v.nodes as any[]) {
        const summary = String(node.failureSummary ?? '')
          .split('\n')
          .slice(1, 2)
          .join(' ')
          .trim();
        out.push(`${v.id} (${v.impact}) ${(node.target as string[]).join(' ')}: ${summary}`.slice(0, 300));
      }
    }
    return out;
  });
}

/** The box of the first element `selector` finds, and whether it lies wholly inside the viewport. */
export async function inViewport(page: Page, selector: string): Promise<{ found: boolean; inside: boolean; box: string }> {
  return page.evaluate((sel) => {
    const w = globalThis as any;
    const el = w.document.querySelector(sel);
    if (!el) return { found: false, inside: false, box: '' };
    const r = el.getBoundingClientRect();
    const inside = r.left >= -0.5 && r.top >= -0.5 && r.right <= w.innerWidth + 0.5 && r.bottom <= w.innerHeight + 0.5;
    return {
      found: true,
      inside,
      box: `${r.left.toFixed(0)},${r.top.toFixed(0)} ${r.width.toFixed(0)}×${r.height.toFixed(0)} in ${w.innerWidth}×${w.innerHeight}`,
    };
  }, selector);
}
