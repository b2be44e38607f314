/**
 * Headless Chromium for the browser suites: Debian's `chromium`
 * (CHROMIUM_PATH, default /usr/bin/chromium; `npx playwright install` cannot
 * download here) driven by playwright-core, in a fresh profile folder that
 * close() removes. The flags are those that work on these machines (closed
 * network, running as root): without the background-networking ones,
 * Chromium's own connections are refused, many at a time.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

/** Where the suites keep their screenshots. */
export const ARTIFACTS = path.join(process.cwd(), 'test-artifacts');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Chromium {
  context: BrowserContext;
  /** The first tab. */
  page: Page;
  /** The browser closed and its profile folder removed. */
  close(): Promise<void>;
}

export async function launchChromium(viewport: { width: number; height: number }): Promise<Chromium> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(path.join(tmpdir(), 'scopa-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      context,
      page,
      close: async () => {
        try {
          await context.close();
        } finally {
          rmSync(profile, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Lets the browser reach only `origin` (and data: and blob: URLs): any other
 * request is refused, and its URL kept in the list returned, for a test to
 * show that a page needs nothing from elsewhere (no CDN: many users are offline).
 */
export async function confineTo(context: BrowserContext, origin: string): Promise<string[]> {
  const refused: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    refused.push(url);
    return route.abort();
  });
  return refused;
}
