import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page, type Request } from 'playwright-core';
import { waitFor } from '@sc/testing';
import { DEMO_PASSWORD } from '../../apps/gateway/src/demo/demo-data';
import { ROOT, startGatewayProcess, type RunningGateway } from './gateway-process';

/** Where every run leaves its screenshots (test-results/ is ignored by git and by the linters). */
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
/** The console the gateway serves. */
export const WEB_DIST = join(ROOT, 'apps', 'web', 'dist');

export const DESKTOP = { width: 1440, height: 900 } as const;
export const PHONE = { width: 375, height: 812 } as const;
export const WALL_SCREEN = { width: 3840, height: 2160 } as const;

export type Viewport = { width: number; height: number };

/**
 * Debian's Chromium driven by playwright-core: no browser download (`npx playwright install` is never needed).
 * CHROMIUM_PATH points elsewhere when the browser lives somewhere else.
 */
export async function launchBrowser(options: { fakeMedia?: boolean } = {}): Promise<Browser> {
  if (!existsSync(join(WEB_DIST, 'index.html')))
    throw new Error(`${WEB_DIST} has no build: run \`cd apps/web && npx vite build\` (npm test does it for you)`);
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: install Debian's chromium or set CHROMIUM_PATH`);
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // A call's voice: Chromium's own test microphone (a beep), granted without asking, and sound that plays unasked.
      ...(options.fakeMedia
        ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required']
        : []),
    ],
  });
  launched.add(browser);
  browser.on('disconnected', () => launched.delete(browser));
  return browser;
}

/** Browsers launched by this test file and not closed yet. */
const launched = new Set<Browser>();

// A browser launched beside a gateway that then failed to start is never handed to the test file's own clean-up
// (`[gw, browser] = await Promise.all(...)` rejects first); left running, it would keep the whole test run alive.
afterAll(async () => {
  await Promise.all([...launched].map((browser) => browser.close().catch(() => undefined)));
});

const pageErrorLists = new WeakMap<Page, string[]>();

/** Browser console noise that is not a fault of the page: refused calls show up as failed resource loads. */
const IGNORED_CONSOLE = [/Failed to load resource/];

/**
 * What a page has asked and not had answered: its requests (code, texts, API; not the socket's own transport) and its
 * feeds (`watch` packets on its socket not acknowledged yet), and when either last moved.
 */
interface Outstanding {
  requests: Set<Request>;
  watches: Set<string>;
  last: number;
}

const outstandingOf = new WeakMap<Page, Outstanding>();

function trackOutstanding(page: Page): void {
  const state: Outstanding = { requests: new Set(), watches: new Set(), last: Date.now() };
  outstandingOf.set(page, state);
  const moved = () => (state.last = Date.now());
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/socket.io/')) return;
    state.requests.add(request);
    moved();
  });
  const ended = (request: Request) => {
    if (state.requests.delete(request)) moved();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  // socket.io: an event with an acknowledgement is `42<id>[name,...]`, its answer `43<id>[...]`.
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/socket.io/')) return;
    ws.on('framesent', ({ payload }) => {
      const watch = /^42(\d+)\["watch"/.exec(String(payload));
      if (!watch) return;
      state.watches.add(watch[1]);
      moved();
    });
    ws.on('framereceived', ({ payload }) => {
      const answer = /^43(\d+)/.exec(String(payload));
      if (answer && state.watches.delete(answer[1])) moved();
    });
    ws.on('close', () => {
      state.watches.clear();
      moved();
    });
  });
}

/**
 * Waits until the page has everything it asked for and has asked nothing more for `quietMs` (counted from `since` at the
 * earliest, e.g. a navigation's start): no request open, and every feed it watches joined (the server's answer to a feed
 * may make the page read again what it shows, see the web app's realtime/socket.ts). Unlike
 * waitForLoadState('networkidle'), which holds once reached until the next navigation, it looks at the page as it is now.
 */
export async function settled(page: Page, { quietMs = 500, timeout = 20_000, since = 0 } = {}): Promise<void> {
  const state = outstandingOf.get(page);
  if (!state) throw new Error('settled: the page was not opened by newPage');
  const quiet = () => state.requests.size === 0 && state.watches.size === 0 && Date.now() - Math.max(state.last, since) >= quietMs;
  await waitFor(() => (quiet() ? true : undefined), timeout, 50);
}

function track(page: Page): Page {
  trackOutstanding(page);
  const errors: string[] = [];
  pageErrorLists.set(page, errors);
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !IGNORED_CONSOLE.some((re) => re.test(message.text()))) errors.push(`console: ${message.text()}`);
  });
  return page;
}

/** Uncaught exceptions and console errors of a page opened by newPage, in order. */
export function pageErrors(page: Page): string[] {
  return pageErrorLists.get(page) ?? [];
}

export interface NewPageOptions {
  /** Cookies and local storage of an earlier context, e.g. a signed-in session (context.storageState()). */
  storageState?: BrowserContextOptions['storageState'];
  /** The interface language, set as the `language` cookie before the first page loads. */
  language?: 'zh' | 'en' | 'es' | 'ja';
  /** The browser's own time zone (IANA name); the machine's when absent. */
  timezoneId?: string;
  baseUrl?: string;
}

/** A page in a context of its own (cookies and storage not shared), with its errors collected. */
export async function newPage(browser: Browser, viewport: Viewport = DESKTOP, options: NewPageOptions = {}): Promise<Page> {
  // The system asks for reduced motion, which the console honours (no transitions): an element a test clicks is where
  // it will stay, even when a busy machine draws a frame every few hundred milliseconds.
  const context = await browser.newContext({
    viewport,
    storageState: options.storageState,
    locale: 'en-US',
    timezoneId: options.timezoneId,
    reducedMotion: 'reduce',
  });
  if (options.language) {
    if (!options.baseUrl) throw new Error('newPage: language needs baseUrl');
    await context.addCookies([{ name: 'language', value: options.language, url: options.baseUrl }]);
  }
  // A missing element fails a test within Jest's own time-out (a minute, tests/support/jest-e2e-setup.ts), with room
  // for a page that loads slowly while another test file keeps the two cores busy.
  context.setDefaultTimeout(20_000);
  return track(await context.newPage());
}

/** Closes the page's context and everything in it. */
export async function closePage(page: Page): Promise<void> {
  await page.context().close();
}

/** The path and query of the page's URL, e.g. '/login?redirect=%2Fentry'. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Waits until the page is at `path` (exact path, any query unless the path has one). */
export async function waitForPath(page: Page, path: string, timeout = 20_000): Promise<void> {
  const [pathname, search] = path.split('?');
  await page.waitForURL((url) => url.pathname === pathname && (search === undefined || url.search === `?${search}`), { timeout });
}

/**
 * Signs in through the login form and waits until the console has left the login page. The user name may carry
 * spaces: the form trims it.
 */
export async function login(page: Page, baseUrl: string, username: string, password = DEMO_PASSWORD, path = '/login'): Promise<void> {
  if (!pathOf(page).startsWith('/login') || !page.url().startsWith(baseUrl)) await page.goto(`${baseUrl}${path}`);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await Promise.all([page.waitForResponse((res) => res.url().endsWith('/api/user/login')), page.getByTestId('login-submit').click()]);
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 10_000 });
}

/** The value of one cookie of the page's context. */
export async function cookie(page: Page, name: string): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === name)?.value;
}

/** One local-storage entry of the current origin. */
export async function localStorageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate<string | null, string>(
    (k) => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(k),
    key,
  );
}

/** Saves a PNG of the visible viewport under test-results/screenshots/ and returns its path. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage, animations: 'disabled' });
  return path;
}

/**
 * Opens a path of the console the way its own links do, without loading the console again (its code, texts and
 * socket stay), and waits until the page has what it asked for (settled: no request open and every feed joined, and
 * nothing moved for `quietMs`). Much cheaper than page.goto for a test that walks every page.
 */
export async function goInApp(page: Page, path: string, quietMs = 400): Promise<void> {
  const since = Date.now();
  await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)})`);
  await waitForPath(page, path);
  await settled(page, { quietMs, timeout: 15_000, since });
}

/** Records every API call the page makes from now on. */
export function recordApiRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) requests.push(request);
  });
  return requests;
}

/** Resolves once the page's socket.io connection has been accepted by the server (its CONNECT packet answered). */
export function socketConnected(page: Page, timeout = 10_000): Promise<void> {
  const connected = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket.io did not connect')), timeout);
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/socket.io/')) return;
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).startsWith('40')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  });
  // A test that fails before awaiting this must not leave an unhandled rejection behind.
  connected.catch(() => undefined);
  return connected;
}

/** Resolves with the first socket.io frame the page receives that contains `text` (e.g. an event name). */
export function socketFrame(page: Page, text: string): Promise<string> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes(text)) resolve(String(payload));
      });
    });
  });
}

/** Resolves once the page has rendered twice more: whatever a handler just scheduled is on screen by then. */
export async function nextFrame(page: Page): Promise<void> {
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}

/**
 * Records in the page every status its rows show from now on: for each element matching `rows`, the `data-status` of
 * the element itself (`status` null) or of its descendant matching `status`, keyed by the row's data-testid; each new
 * value as it is rendered (a MutationObserver: no sampling, nothing missed between two looks). Answers a function that
 * reads what each row showed, in order (its first value being what it showed when recording began).
 */
export async function recordRowStatuses(page: Page, rows: string, status: string | null = null): Promise<() => Promise<Record<string, string[]>>> {
  const key = `__rowStatuses${Math.floor(Math.random() * 1e9)}`;
  await page.evaluate(`(() => {
    const seen = {};
    const look = () => {
      for (const row of document.querySelectorAll(${JSON.stringify(rows)})) {
        const holder = ${status === null ? 'row' : `row.querySelector(${JSON.stringify(status)})`};
        const value = holder && holder.getAttribute('data-status');
        if (value === null || value === undefined) continue;
        const list = (seen[row.getAttribute('data-testid')] ??= []);
        if (list.at(-1) !== value) list.push(value);
      }
    };
    look();
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
    globalThis[${JSON.stringify(key)}] = seen;
  })()`);
  return () => page.evaluate<Record<string, string[]>>(`globalThis[${JSON.stringify(key)}]`);
}

/**
 * Every socket.io frame the page receives from now on that contains `text` (or matches it), as received: e.g.
 * '["DispatchProgress",' for that event's pushes, /^43/ for the answers to its `watch` requests (feeds joined).
 */
export function socketFrames(page: Page, text: string | RegExp): string[] {
  const frames: string[] = [];
  const matches = (payload: string) => (typeof text === 'string' ? payload.includes(text) : text.test(payload));
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      if (matches(String(payload))) frames.push(String(payload));
    });
  });
  return frames;
}

/** A live page's reads of one API path, and the pushes that may have caused them (dispatchReads). */
export interface DispatchReads {
  /** Counts from now on. */
  mark(): void;
  /** Since the mark: the reads, the progress frames of `dispatchId`, the feeds the page joined, and the other causes. */
  since(dispatchId: string): { reads: number; progress: number; joined: number; other: number };
}

/**
 * Records, from before the page loads, its reads of `path` (a receive-status page) and what may cause a live page to
 * read again: a DispatchProgress push (the dispatch's counts moved), the answer to a `watch` (a feed joined, events
 * may have been missed), and frames matching `otherCause` (e.g. a screen's report of what it plays). A page that reads
 * more often than these has another cause for it, such as polling.
 */
export function dispatchReads(page: Page, path: string, otherCause?: RegExp): DispatchReads {
  const reads: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) reads.push(request.postData() ?? '');
  });
  const progress = socketFrames(page, '["DispatchProgress",');
  const joined = socketFrames(page, /^43/);
  const other = otherCause ? socketFrames(page, otherCause) : [];
  let from = { reads: 0, progress: 0, joined: 0, other: 0 };
  return {
    mark: () => (from = { reads: reads.length, progress: progress.length, joined: joined.length, other: other.length }),
    since: (dispatchId) => ({
      reads: reads.length - from.reads,
      progress: progress.slice(from.progress).filter((frame) => frame.includes(dispatchId)).length,
      joined: joined.length - from.joined,
      other: other.length - from.other,
    }),
  };
}

/** Types a 24-hour time (HH:mm) into one of the console's time fields (components/date-inputs TimeField). */
export async function fillTime(field: Locator, time: string): Promise<void> {
  const [hours, minutes] = time.split(':');
  const inputs = field.locator('input:not([type=hidden])');
  await inputs.nth(0).fill(hours);
  await inputs.nth(1).fill(minutes);
}

/** The toasts (Mantine notifications) currently shown. */
/**
 * In a GroupPicker (`testId`): tries the empty group `empty`, which must be refused with `refusal` within `scope`,
 * then chooses the group `chosen` and closes the list.
 */
export async function pickGroupAfterEmpty(
  page: Page,
  scope: Locator,
  testId: string,
  groups: { empty: string; chosen: string },
  refusal: string,
): Promise<void> {
  const option = (name: string) => page.getByTestId(`${testId}-option`).filter({ hasText: name });
  await page.getByTestId(testId).click();
  await option(groups.empty).click();
  await scope.getByText(refusal).waitFor();
  await option(groups.chosen).click();
  await page.keyboard.press('Escape');
}

export function toasts(page: Page) {
  return page.locator('.mantine-Notification-root');
}

export type StorageState = BrowserContextOptions['storageState'];

/** One gateway process and one browser for a test file, with pages closed after each test. */
export interface BrowserSuite {
  readonly gw: RunningGateway;
  readonly browser: Browser;
  /** A page of its own (own cookies and storage), closed after the test. */
  open(storageState?: StorageState, viewport?: Viewport, options?: Omit<NewPageOptions, 'storageState' | 'baseUrl'>): Promise<Page>;
  /** Signs in through the login form and returns the session's cookies and storage, for open(). */
  signedIn(username: string): Promise<StorageState>;
}

/** Registers the file's beforeAll/afterEach/afterAll hooks; call at the top of a describe block. */
export function browserSuite(): BrowserSuite {
  const pages: Page[] = [];
  const suite = {
    gw: undefined as unknown as RunningGateway,
    browser: undefined as unknown as Browser,
    async open(storageState?: StorageState, viewport?: Viewport, options: Omit<NewPageOptions, 'storageState' | 'baseUrl'> = {}) {
      const page = await newPage(suite.browser, viewport, { ...options, storageState, baseUrl: suite.gw.baseUrl });
      pages.push(page);
      return page;
    },
    async signedIn(username: string) {
      const page = await suite.open();
      await login(page, suite.gw.baseUrl, username);
      return page.context().storageState();
    },
  };
  beforeAll(async () => {
    [suite.gw, suite.browser] = await Promise.all([startGatewayProcess(), launchBrowser()]);
  }, 60_000);
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((page) => closePage(page)));
  });
  afterAll(async () => {
    await suite.browser?.close();
    if (suite.gw) await suite.gw.stop();
  });
  return suite;
}

export interface TableFit {
  tableWidth: number;
  boxWidth: number;
  /** The last header cell (the actions column) lies wholly inside the table's box and the window. */
  lastColumnShown: boolean;
  /** Texts of body cells that run over more than one line (cells of columns that may wrap, `data-wrap`, aside). */
  wrapped: string[];
  /** Texts cut short (an ellipsis) without their whole text in a `title` (on the text or around it) to show on hover. */
  untitled: string[];
  /** How many texts are cut short with their whole text in a `title`. */
  cut: number;
}

/**
 * How a table sits in its box: the box is the nearest ancestor that scrolls sideways (or clips). And how its cells
 * show their texts: on one line, a text cut short carrying the whole of it in a `title`.
 */
export async function tableFit(table: Locator): Promise<TableFit> {
  return table.evaluate((el) => {
    interface Box {
      left: number;
      right: number;
      top: number;
    }
    interface Node {
      parentElement: Element | null;
      textContent: string | null;
    }
    interface Element extends Node {
      clientWidth: number;
      scrollWidth: number;
      getBoundingClientRect(): Box;
      querySelector(selector: string): Element | null;
      querySelectorAll(selector: string): Element[];
      closest(selector: string): Element | null;
      getAttribute(name: string): string | null;
      lastElementChild: Element | null;
    }
    const win = globalThis as unknown as {
      getComputedStyle(e: unknown): { overflowX: string };
      innerWidth: number;
      document: {
        createRange(): { selectNodeContents(node: Node): void; getClientRects(): ArrayLike<Box> };
        createTreeWalker(root: Element, what: number): { nextNode(): Node | null };
      };
    };
    const table = el as unknown as Element;
    let box = table.parentElement!;
    while (box.parentElement && !['auto', 'scroll', 'hidden'].includes(win.getComputedStyle(box).overflowX)) box = box.parentElement;
    const outer = box.getBoundingClientRect();
    const head = table.querySelector('thead tr')?.lastElementChild?.getBoundingClientRect();
    const lastColumnShown = !!head && head.left >= outer.left - 1 && head.right <= outer.right + 1 && head.right <= win.innerWidth;

    const text = (node: Node) => (node.textContent ?? '').replace(/\s+/g, ' ').trim();
    const wrapped: string[] = [];
    const untitled: string[] = [];
    let cut = 0;
    for (const cell of table.querySelectorAll(':scope > tbody > tr > td')) {
      // A message across the whole table (no rows yet) may wrap like any paragraph.
      if (cell.getAttribute('data-wrap') === null && Number(cell.getAttribute('colspan') ?? 1) <= 1) {
        // A text node drawn on two lines has boxes at two heights.
        const walker = win.document.createTreeWalker(cell, 4 /* NodeFilter.SHOW_TEXT */);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!text(node)) continue;
          const range = win.document.createRange();
          range.selectNodeContents(node);
          const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
          if (tops.size > 1) {
            wrapped.push(text(cell));
            break;
          }
        }
      }
      for (const inner of [cell, ...cell.querySelectorAll('*')]) {
        // A box that clips its text: the text is wider than the box.
        if (!text(inner) || win.getComputedStyle(inner).overflowX === 'visible' || inner.scrollWidth <= inner.clientWidth + 1) continue;
        // The title holds what is shown, and more where the shown text is itself a preview ending in an ellipsis.
        const title = inner.closest('[title]')?.getAttribute('title')?.replace(/\s+/g, ' ').trim();
        if (title && title.startsWith(text(inner).replace(/…$/, ''))) cut += 1;
        else untitled.push(text(inner));
      }
    }
    return { tableWidth: table.scrollWidth, boxWidth: box.clientWidth, lastColumnShown, wrapped, untitled, cut };
  });
}
