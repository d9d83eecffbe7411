import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * What every dashboard page's browser test does (docs/dashboard.md#tests): sign in as a person
 * would, check the page with axe-core (0 serious or critical violations), check it at a phone's
 * and a laptop's width (no sideways scrolling of the page itself) and keep its screenshots.
 */

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** axe-core's violations on the page (injected from node_modules; the context bypasses the CSP for it). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((result) =>
      result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))`,
  ) as Promise<AxeViolation[]>;
}

export async function expectNoSeriousViolations(page: Page): Promise<void> {
  const serious = (await axeViolations(page)).filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(serious).toEqual([]);
}

/** Presses Tab until the focused element matches `selector` (at most `limit` times): keyboard only. */
export async function tabTo(page: Page, selector: string, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    if (await page.locator(`${selector}:focus`).count()) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

export const PHONE = { width: 390, height: 844 } as const;
export const LAPTOP = { width: 1280, height: 800 } as const;

/** A browser context at laptop size; CSP bypassed only so axe-core can be injected. */
export async function dashboardContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: LAPTOP, deviceScaleFactor: 1, bypassCSP: true });
}

/** Signs in on the sign-in page with the admin token and waits for Home. */
export async function signIn(page: Page, baseUrl: string, adminToken: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.fill('#field-admin_token', adminToken);
  await page.click('button[type="submit"]:text("Sign in")');
  await page.waitForSelector('main h1:text-is("Home")');
}

/** The curated screenshots shown in the README and docs/dashboard.md. */
export const DASHBOARD_SCREENSHOTS = join(__dirname, '../../../docs/screenshots/dashboard');
const RUN_SCREENSHOTS = join(__dirname, '../../../test-results/screenshots/dashboard');

/**
 * The page as it is now, at a phone's width and then a laptop's: axe-core finds nothing serious at
 * either, the page never scrolls sideways (wide tables scroll in their own region), and each
 * width's screenshot is taken. `UPDATE_SCREENSHOTS=1` writes them to docs/screenshots/dashboard
 * (commit them); otherwise they go to test-results, and the kept ones must exist, so a page
 * without its screenshots in the docs fails.
 */
export async function checkPageAtBothWidths(page: Page, name: string): Promise<void> {
  const update = process.env.UPDATE_SCREENSHOTS === '1';
  const dir = update ? DASHBOARD_SCREENSHOTS : RUN_SCREENSHOTS;
  mkdirSync(dir, { recursive: true });
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    const overflow = (await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    )) as number;
    expect({ page: name, width: label, overflowPx: overflow }).toEqual({
      page: name,
      width: label,
      overflowPx: 0,
    });
    await expectNoSeriousViolations(page);
    const file = `${name}-${label}.png`;
    await page.screenshot({ path: join(dir, file), fullPage: true });
    const kept = join(DASHBOARD_SCREENSHOTS, file);
    expect({ kept: file, exists: existsSync(kept) }).toEqual({ kept: file, exists: true });
    // A PNG's width is bytes 16..19 of its header: the kept screenshot is of this width.
    expect(readFileSync(kept).readUInt32BE(16)).toBe(viewport.width);
  }
  await page.setViewportSize(LAPTOP);
}
