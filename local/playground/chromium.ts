/**
 * Headless Chromium for the playground's browser test and its screenshots: Debian's chromium
 * through playwright-core (never a downloaded browser). CHROMIUM_PATH points elsewhere.
 */
import {existsSync} from 'node:fs';
import {Browser, chromium} from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function haveChromium(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
      // Repainting part of a tile (a text set again) shifted anti-aliased edges near it by a
      // level: the screenshots must come out the same bytes from the same page.
      '--disable-partial-raster',
    ],
  });
}
