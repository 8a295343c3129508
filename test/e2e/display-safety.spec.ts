// E2E: control and text-direction characters never reach the screen raw (issue 9, item 10). A memo with ESC and a
// right-to-left override is refused by the engine with a clear message; text from the platform and other people
// (a stored memo, a rejection reason, a sync progress line, an error from the service) that carries such characters
// is shown escaped as ⟨U+XXXX⟩, injected on the harness socket so the display path is tested whatever the engine
// accepts; and text typed on a screen and echoed in a confirmation is shown escaped too.
import { randomBytes } from 'node:crypto';
import type { Page, WebSocketRoute } from '@playwright/test';
import { escapeUnsafeText, UNSAFE_TEXT_CHARACTERS, type ContractEvent, type Result } from '../../electron/contract';
import { test, expect } from './support/desk';
import { DEMO_DESK_WITHDRAWALS } from '../../electron/core/desk/demo-desk';
import { DEMO_ADMIN, DEMO_APPROVER, fillWithdrawal, go, startDemo } from './support/flows';
import { saveScreenshot } from './support/page-checks';

/** An ANSI colour, a right-to-left override, an isolate pair and a C1 control sequence introducer. */
const NASTY = 'INV-7 \u001b[31mPAID\u001b[0m \u202Efdp.exe \u2066x\u2069 \u009b2J';
const SHOWN = escapeUnsafeText(NASTY);

function codePoints(text: string): string[] {
  return [...text].map((character) => `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * The page shows no raw unsafe character: not in body.innerText (whose tabs between table cells are layout, not
 * content), and not in any text node or title / alt / aria-label attribute (form fields hold what was typed and are
 * left out: they are the person's own input, not something shown to them).
 */
async function expectNoRawUnsafeText(page: Page): Promise<void> {
  const innerText = await page.locator('body').innerText();
  expect(codePoints([...innerText].filter((character) => character !== '\t' && UNSAFE_TEXT_CHARACTERS.test(character)).join(''))).toEqual([]);
  // A string expression: this project's Node typings have no DOM.
  const texts = (await page.evaluate(`(() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.parentElement === null || node.parentElement.closest('input, textarea, script, style') === null) found.push(node.nodeValue || '');
    }
    for (const element of document.body.querySelectorAll('[title], [alt], [aria-label]')) {
      for (const name of ['title', 'alt', 'aria-label']) found.push(element.getAttribute(name) || '');
    }
    return found;
  })()`)) as string[];
  expect(texts.filter((text) => UNSAFE_TEXT_CHARACTERS.test(text)).map((text) => `${JSON.stringify(text)}: ${codePoints(text.match(new RegExp(UNSAFE_TEXT_CHARACTERS.source, 'gu'))?.join('') ?? '').join(' ')}`)).toEqual(
    [],
  );
}

test('a memo with ESC and bidi characters is refused or shown escaped', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await fillWithdrawal(page);
  await page.getByTestId('@withdrawals/memo').fill(NASTY);
  await page.getByTestId('@withdrawals/request-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await dialog.getByTestId('@operator-dialog/operator').fill(DEMO_ADMIN.operator);
  await dialog.getByTestId('@operator-dialog/passphrase').fill(DEMO_ADMIN.passphrase);
  await dialog.getByTestId('@operator-dialog/confirm').click();

  // Refused at input, saying why, naming the character without showing it raw; nothing was stored.
  const refusal = dialog.getByTestId('@operator-dialog/error');
  await expect(refusal).toBeVisible();
  await expect(refusal).toHaveAttribute('data-code', 'invalidInput');
  await expect(refusal).toContainText('control and text-direction characters');
  await expect(refusal).toContainText('U+001B');
  await expectNoRawUnsafeText(page);
  await saveScreenshot(page, 'withdrawals-memo-refused');
  // Only the demo desk's own first-day withdrawals (core/desk/demo-desk.ts): nothing of this request was stored.
  expect((await desk.value('withdrawals/list', {})).rows.map((row) => row.memo).sort()).toEqual(DEMO_DESK_WITHDRAWALS.map((planned) => planned.memo).sort());
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expectNoRawUnsafeText(page);
});

test('text from the platform and other people with control and bidi characters is shown escaped', async ({ page, desk }) => {
  // The harness socket, routed: answers and events pass through with two placeholders replaced by NASTY (as if the
  // engine had stored it before input checks existed, or the platform had sent it), a forged service error answers
  // the transfer check, and events can be pushed to the page.
  const MEMO = 'MEMOPLACEHOLDER7';
  const REASON = 'REASONPLACEHOLDER7';
  const inJson = JSON.stringify(NASTY).slice(1, -1);
  const forged: Readonly<Record<string, Result<never>>> = {
    'tools/checkTransfer': { ok: false, error: { code: 'service', message: `The service refused the check: ${NASTY}`, serviceReason: `code \u202E7 \u001b]0;title\u0007` } },
  };
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/harness-ws$/, (socket) => {
    sockets.push(socket);
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      const call = JSON.parse(String(message)) as { id: number; method: string };
      const answer = forged[call.method];
      if (answer === undefined) server.send(message);
      else socket.send(JSON.stringify({ id: call.id, result: answer }));
    });
    server.onMessage((message) => socket.send(String(message).replaceAll(MEMO, inJson).replaceAll(REASON, inJson)));
  });
  const pushEvent = (event: ContractEvent): void => {
    for (const socket of sockets) socket.send(JSON.stringify({ event }));
  };

  await startDemo(page, desk.url);
  const base = { currency: 'eth.usdt', amount: '25', withdrawType: 'normal' } as const;
  const { withdrawal } = await desk.value('withdrawals/request', { ...base, toAddress: `0x${randomBytes(20).toString('hex')}`, memo: MEMO, as: DEMO_ADMIN });
  await desk.value('withdrawals/reject', { id: withdrawal.id, reason: REASON, as: DEMO_APPROVER });

  // A stored memo and another operator's reason, on the withdrawal's detail.
  await go(page, 'withdrawals');
  await page.getByTestId('@withdrawals/tab-orders').click();
  await page.locator(`[data-testid="@withdrawals/order-row"][data-id="${withdrawal.id}"]`).getByRole('button', { name: /Details/ }).click();
  const detail = page.getByTestId('@withdrawals/detail');
  await expect(detail.getByTestId('@withdrawals/detail-memo')).toHaveText(SHOWN);
  await expect(detail.getByTestId('@withdrawals/timeline')).toContainText(SHOWN);
  expect(SHOWN).toContain('⟨U+001B⟩[31mPAID⟨U+001B⟩[0m ⟨U+202E⟩fdp.exe ⟨U+2066⟩x⟨U+2069⟩ ⟨U+009B⟩2J');
  await expectNoRawUnsafeText(page);
  await saveScreenshot(page, 'withdrawals-memo-escaped');

  // A platform message in an event (sync progress), shown in the banner.
  pushEvent({ type: 'sync/progress', progress: { resource: 'deposits', done: 1, total: null, message: `page 2: ${NASTY}` } });
  await expect(page.getByTestId('@banner/progress')).toContainText(`page 2: ${SHOWN}`);
  await expectNoRawUnsafeText(page);
  pushEvent({ type: 'sync/progress', progress: null });
  await expect(page.getByTestId('@banner/progress')).toBeHidden();

  // An error from the service, with its reason.
  await go(page, 'tools');
  await page.getByTestId('@tools/transfer-txid').fill('0xabc');
  await page.getByTestId('@tools/transfer-check-button').click();
  const error = page.getByTestId('@screen/tools').getByRole('alert').filter({ hasText: 'The service refused the check' });
  await expect(error).toContainText(`The service refused the check: ${SHOWN}`);
  await expect(error).toContainText('code ⟨U+202E⟩7 ⟨U+001B⟩]0;title⟨U+0007⟩');
  await expectNoRawUnsafeText(page);
});

test('typed text echoed in a confirmation is shown escaped', async ({ page, desk }) => {
  await startDemo(page, desk.url);
  await go(page, 'addresses');
  await page.getByTestId('@addresses/user-order').fill('INV\u202E7\u001b[0m');
  await page.getByTestId('@addresses/create-button').click();
  const dialog = page.getByTestId('@operator-dialog');
  await expect(dialog.getByTestId('@operator-dialog/description')).toContainText('for user order INV⟨U+202E⟩7⟨U+001B⟩[0m will be created');
  await expectNoRawUnsafeText(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
