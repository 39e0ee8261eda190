// Debian's headless Chromium driven through playwright-core, for the browser tests, with the
// checks every one of them applies to every page: nothing is fetched from another origin, no
// console error, no uncaught exception, no failed request, and no HTTP status of 400 or more
// unless the step said it expects one (`expectStatus`).
import { createRequire } from 'node:module';
import path from 'node:path';

// Collects failures instead of stopping at the first, and reports them at the end.
export class Failures {
  constructor() {
    this.list = [];
  }

  add(what) {
    this.list.push(what);
  }

  // Prints the failures and exits 1, or prints `success` and exits 0.
  exit(success) {
    if (this.list.length > 0) {
      for (const failure of this.list) console.error(`FAIL: ${failure}`);
      process.exit(1);
    }
    console.log(success);
    process.exit(0);
  }
}

// Chromium (CHROMIUM in the environment, else /usr/bin/chromium) through the playwright-core
// pinned in TOOLS_DIR/package.json.
export async function launchBrowser(toolsDir) {
  const { chromium } = createRequire(path.resolve(toolsDir, 'package.json'))('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'],
  });
}

// What Chromium logs for every response of 400 or more that a page fetched.
const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d+)/;

// Browser contexts on one server (`base`, its origin) whose every page is checked.
export class CheckedBrowser {
  constructor(browser, base, failures) {
    this.browser = browser;
    this.base = base;
    this.failures = failures;
    // Responses a step expects to be ≥ 400: each excuses one response and the console line
    // Chromium writes for it, whichever of the two comes first.
    this.expected = [];
  }

  // The next response with `status` whose URL contains `urlPart` is expected, not a failure.
  expectStatus(status, urlPart) {
    this.expected.push({ status, urlPart, response: false, console: false });
  }

  excuse(status, url, kind) {
    const entry = this.expected.find((e) => e.status === status && url.includes(e.urlPart)
      && !e[kind]);
    if (!entry) return false;
    entry[kind] = true;
    if (entry.response && entry.console) this.expected.splice(this.expected.indexOf(entry), 1);
    return true;
  }

  async newContext(options = {}) {
    const context = await this.browser.newContext(options);
    const fail = (what) => this.failures.add(what);
    // Anything not from this server (fonts, CDNs, analytics) is refused and reported.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${this.base}/`) || url.startsWith('data:') || url.startsWith('blob:')) {
        return route.continue();
      }
      fail(`a page fetched from another origin: ${url}`);
      return route.abort();
    });
    context.on('console', (message) => {
      if (message.type() !== 'error') return;
      const failed = FAILED_RESOURCE.exec(message.text());
      if (failed && this.excuse(Number(failed[1]), message.location().url ?? '', 'console')) return;
      fail(`console error on ${message.page()?.url()}: ${message.text()}`);
    });
    context.on('weberror', (error) => fail(`uncaught exception in a page: ${error.error().message}`));
    context.on('requestfailed', (request) => {
      const errorText = request.failure()?.errorText;
      // Cancelled by the browser because the page was left while it loaded (a poll in flight, the
      // icon): not a failure. (Requests the route above refuses fail as net::ERR_FAILED.)
      if (errorText === 'net::ERR_ABORTED') return;
      fail(`request failed: ${request.method()} ${request.url()} (${errorText})`);
    });
    context.on('response', (response) => {
      const status = response.status();
      if (status < 400 || this.excuse(status, response.url(), 'response')) return;
      fail(`HTTP ${status} for ${response.request().method()} ${response.url()}`);
    });
    return context;
  }
}
