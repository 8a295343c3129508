// The period statement as one self-contained HTML page for printing to PDF (statements/html): inline style only, a
// content security policy that forbids scripts and every external resource, and every text escaped (HTML, then
// control and text-direction characters made visible). Each withdrawal of the period names its destination's payee.
// The page is titled with the merchant's name, amounts are grouped in thousands, currencies named as assets, pages numbered
// ("Page 1 of 3", a CSS page-margin box, so every printer of the desk numbers them), and it ends with the audit head's fingerprint.
import { CURRENCIES, isCurrencySymbol } from '../../chains';
import { escapeUnsafeText, findingStatus, groupAmount, isoInZone, type PeriodStatement, type PeriodStatementCurrency, type PeriodStatementWithdrawal, type ReconciliationFinding } from '../../contract';

/** Amounts are grouped in thousands the English way (1,250.5): the statement's one locale until the desk speaks others. */
const STATEMENT_LOCALE = 'en-US';

/** Text as HTML shows it literally: markup characters as entities, unsafe characters as visible marks. */
export function htmlText(text: string): string {
  return escapeUnsafeText(text).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const STYLE = `
@page { size: A4 landscape; margin: 14mm 14mm 18mm; @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 8pt "DejaVu Sans", Arial, sans-serif; } }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 9.5pt; color: #111; }
h1 { font-size: 15pt; margin: 0 0 4pt; }
h2 { font-size: 11.5pt; margin: 14pt 0 4pt; }
p { margin: 2pt 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 0.5pt solid #999; padding: 3pt 4pt; text-align: right; vertical-align: top; }
th:first-child, td:first-child, td.text { text-align: left; }
td.amount { font-variant-numeric: tabular-nums; white-space: nowrap; }
td.address { font-family: "DejaVu Sans Mono", monospace; text-align: left; word-break: break-all; }
small { color: #444; }
.unexplained { font-weight: bold; }
footer { margin-top: 16pt; border-top: 1pt solid #111; padding-top: 4pt; }
`;

function time(ms: number, timeZone: string): string {
  return htmlText(isoInZone(ms, timeZone, { separator: ' ' }));
}

/** An amount with thousands grouped ('-' and other non-amounts as they are). */
function money(amount: string): string {
  return htmlText(groupAmount(amount, STATEMENT_LOCALE));
}

/** A currency as an accountant reads it: "USDT on TRON", its symbol small beneath. */
function assetName(symbol: string): string {
  return isCurrencySymbol(symbol) ? `${htmlText(CURRENCIES[symbol].displayName)}<br><small>${htmlText(symbol)}</small>` : htmlText(symbol);
}

function amountCell(amount: string, count?: number): string {
  return `<td class="amount">${money(amount)}${count === undefined ? '' : `<br><small>${count} record${count === 1 ? '' : 's'}</small>`}</td>`;
}

function readingCell(reading: PeriodStatementCurrency['opening'], timeZone: string): string {
  if (reading === null) return '<td class="amount">-</td>';
  return `<td class="amount">${money(reading.available)}<br><small>frozen ${money(reading.frozen)}<br>read ${time(reading.observedAt, timeZone)}</small></td>`;
}

function currencyRow(currency: PeriodStatementCurrency, timeZone: string): string {
  const unexplained = currency.unexplained ?? '-';
  const flagged = currency.unexplained !== null && currency.unexplained !== '0';
  return (
    `<tr><td>${assetName(currency.currency)}${currency.startsLate ? '<br><small>opens at its first reading</small>' : ''}</td>` +
    readingCell(currency.opening, timeZone) +
    amountCell(currency.deposits.amount, currency.deposits.count) +
    amountCell(currency.depositFees) +
    amountCell(currency.withdrawals.amount, currency.withdrawals.count) +
    amountCell(currency.withdrawalFees) +
    amountCell(currency.refunds.amount, currency.refunds.count) +
    readingCell(currency.closing, timeZone) +
    `<td class="amount${flagged ? ' unexplained' : ''}">${money(unexplained)}</td></tr>`
  );
}

function withdrawalRow(withdrawal: PeriodStatementWithdrawal, timeZone: string): string {
  return (
    `<tr><td>${htmlText(withdrawal.request)}</td><td class="text">${assetName(withdrawal.currency)}</td><td class="text">${time(withdrawal.at, timeZone)}</td>` +
    amountCell(withdrawal.amount) +
    amountCell(withdrawal.fee ?? '-') +
    `<td class="address">${htmlText(withdrawal.toAddress)}</td><td class="text">${withdrawal.payee === null ? '-' : htmlText(withdrawal.payee)}</td>` +
    `<td class="text">${htmlText(withdrawal.orderStatus ?? '-')}</td></tr>`
  );
}

function findingRow(finding: ReconciliationFinding, timeZone: string): string {
  return (
    `<tr><td>${findingStatus(finding) === 'unexplained' ? '<span class="unexplained">UNEXPLAINED</span>' : findingStatus(finding)}</td>` +
    `<td class="text">${assetName(finding.currency)}</td><td class="text">${finding.at === null ? '-' : time(finding.at, timeZone)}</td>` +
    `<td class="amount">${money(finding.amount)}</td><td class="text">${htmlText(finding.summary)}<br><small>${htmlText(finding.explanation)}</small></td></tr>`
  );
}

/** A table of `rows` under these column headings, or the note when there are none. */
function tableOrNote(headings: readonly string[], rows: readonly string[], note: string): string {
  if (rows.length === 0) return `<p>${note}</p>`;
  return `<table><thead><tr>${headings.map((heading) => `<th scope="col">${heading}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The printable page of a statement. */
export function periodStatementHtml(statement: PeriodStatement): string {
  const { timeZone } = statement;
  const currencies = tableOrNote(
    ['Currency', 'Opening', 'Deposits', 'Deposit fees (kept)', 'Withdrawals', 'Withdrawal fees', 'Refunds', 'Closing', 'Unexplained difference'],
    statement.currencies.map((currency) => currencyRow(currency, timeZone)),
    'No balance or record in this period: run a sync first.',
  );
  const withdrawals = tableOrNote(
    ['Request', 'Currency', 'Created', 'Amount', 'Fee', 'To', 'Payee', 'Status'],
    statement.withdrawals.map((withdrawal) => withdrawalRow(withdrawal, timeZone)),
    'No withdrawal order was created in this period.',
  );
  const findings = tableOrNote(['Status', 'Currency', 'At', 'Amount', 'What'], statement.findings.map((finding) => findingRow(finding, timeZone)), 'No findings.');
  const head = statement.auditHead;
  const owner = statement.merchantName ?? statement.profile;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `<title>Statement ${htmlText(owner)}</title><style>${STYLE}</style></head><body>` +
    `<h1>Statement of ${htmlText(owner)}</h1>` +
    (statement.merchantName === null ? '' : `<p>Desk profile ${htmlText(statement.profile)}</p>`) +
    `<p>Period ${time(statement.from, timeZone)} to ${time(statement.to, timeZone)} (times in ${htmlText(timeZone)}); made ${time(statement.generatedAt, timeZone)}.</p>` +
    '<p><small>Opening and closing are the available balance the payment service reported, as it stood when the period starts and ends. Unexplained difference = closing - (opening + deposits - withdrawals - withdrawal fees + refunds). Refunds are the amount and fee of withdrawals the service refunded or that failed.</small></p>' +
    `<h2>Balances and movements</h2>${currencies}` +
    `<h2>Withdrawals (${statement.withdrawals.length})</h2>${withdrawals}` +
    `<h2>Reconciliation findings (${statement.unexplainedFindings} unexplained)</h2>${findings}` +
    `<footer>Audit head: ${head === null ? 'the audit log is empty' : `entry ${head.seq}, fingerprint <strong>${htmlText(head.fingerprint)}</strong>`}</footer>` +
    '</body></html>'
  );
}
