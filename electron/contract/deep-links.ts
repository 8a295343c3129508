// Deep links `treasury-desk://<kind>/<id>` parsed into what to show, for main (which receives them from the OS) and the
// renderer (which opens the screen). Invariant: a link only ever names a screen and a record to show; it never carries
// a decision, and whatever it holds is checked here (zod, the contract's id rules) and shown escaped when refused.
import { z } from 'zod';
import { escapeSingleLine } from './display-text';
import { payoutBatchId } from './methods';

export const DEEP_LINK_SCHEME = 'treasury-desk';
/** Longer links are refused unread (the longest valid one, a deposit's 200-character txid, is far shorter). */
export const DEEP_LINK_MAX_CHARS = 300;
/** How much of a refused link is shown back. */
const SHOWN_CHARS = 120;

/** The record a link opens. */
export type DeepLinkTarget =
  | { readonly kind: 'withdrawal'; readonly id: string }
  | { readonly kind: 'payoutBatch'; readonly id: string }
  | { readonly kind: 'deposit'; readonly txid: string }
  | { readonly kind: 'payee'; readonly id: string };

export type DeepLinkProblem = 'malformed' | 'unknownKind' | 'badId';

/** What a link asks for: open a record's screen, or nothing (with why, and the link escaped for display). */
export type DeepLinkIntent =
  | { readonly outcome: 'open'; readonly target: DeepLinkTarget }
  | { readonly outcome: 'refused'; readonly problem: DeepLinkProblem; readonly message: string; readonly link: string };

/** A withdrawal request's id as withdrawals list shows it (the contract's withdrawals/get takes it as text). */
export const withdrawalRequestId = z.string().regex(/^[1-9][0-9]{0,14}$/, 'a withdrawal id is a number, as the withdrawals list shows it');
/** A payee's id as payees/list shows it (the desk makes it: lower-case letters, digits and dashes). */
export const payeeId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a payee id is 1 to 64 lower-case letters, digits and dashes, as the payees list shows it');
/** A deposit's transaction id (hex, base58 or base64 as the chain writes it; never a slash, space or percent sign). */
export const depositTxid = z.string().regex(/^[A-Za-z0-9+=_.:-]{8,200}$/, 'a deposit link names its transaction id (8 to 200 letters, digits, "+", "=", "_", ".", ":" or "-")');

/** The kinds of link, each with the schema its id must pass. */
const KINDS = {
  withdrawal: { schema: withdrawalRequestId, target: (id: string): DeepLinkTarget => ({ kind: 'withdrawal', id }) },
  batch: { schema: payoutBatchId, target: (id: string): DeepLinkTarget => ({ kind: 'payoutBatch', id }) },
  deposit: { schema: depositTxid, target: (txid: string): DeepLinkTarget => ({ kind: 'deposit', txid }) },
  payee: { schema: payeeId, target: (id: string): DeepLinkTarget => ({ kind: 'payee', id }) },
} as const;
type LinkKind = keyof typeof KINDS;

const SHAPE = /^treasury-desk:\/\/([^/?#]*)\/([^/?#]*)\/?$/i;

/** The link as it may be shown: control and direction characters escaped, one line, cut to a readable length. */
export function displayableLink(raw: string): string {
  const cut = raw.length > SHOWN_CHARS ? `${raw.slice(0, SHOWN_CHARS)}…` : raw;
  return escapeSingleLine(cut);
}

function refused(raw: string, problem: DeepLinkProblem, message: string): DeepLinkIntent {
  return { outcome: 'refused', problem, message, link: displayableLink(raw) };
}

function isLinkKind(kind: string): kind is LinkKind {
  return Object.hasOwn(KINDS, kind);
}

/** What `raw` asks to show; never throws. */
export function parseDeepLink(raw: unknown): DeepLinkIntent {
  if (typeof raw !== 'string') return refused('', 'malformed', 'this link is not text: nothing was opened');
  if (raw.length > DEEP_LINK_MAX_CHARS) return refused(raw, 'malformed', `this link is longer than ${DEEP_LINK_MAX_CHARS} characters: nothing was opened; ask for the link again`);
  // Printable ASCII only: no control, direction or look-alike characters, no spaces.
  if (!/^[\x21-\x7e]*$/.test(raw)) return refused(raw, 'malformed', 'this link holds spaces, control, direction or non-ASCII characters: nothing was opened; ask for the link again');
  // Ids never need percent-encoding, so none is decoded: an encoded slash, dot or control character cannot hide in one.
  if (raw.includes('%')) return refused(raw, 'malformed', 'this link is percent-encoded, which a Treasury Desk link never is: nothing was opened');
  const match = SHAPE.exec(raw);
  if (match === null) {
    const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(raw)?.[0];
    const message =
      scheme !== undefined && scheme.toLowerCase() !== `${DEEP_LINK_SCHEME}:`
        ? `this is not a Treasury Desk link (${DEEP_LINK_SCHEME}://…): nothing was opened`
        : `this link is not of the form ${DEEP_LINK_SCHEME}://<kind>/<id> (no query, fragment or further path): nothing was opened`;
    return refused(raw, 'malformed', message);
  }
  const kind = match[1] ?? '';
  const id = match[2] ?? '';
  if (isLinkKind(kind)) {
    const parsed = KINDS[kind].schema.safeParse(id);
    if (!parsed.success) return refused(raw, 'badId', `this ${kind} link's id is not valid (${parsed.error.issues[0]?.message ?? 'bad id'}): nothing was opened`);
    return { outcome: 'open', target: KINDS[kind].target(parsed.data) };
  }
  return refused(raw, 'unknownKind', `this link asks for "${displayableLink(kind.slice(0, 32))}", which this desk does not know (it opens withdrawal, batch, deposit and payee links): nothing was opened`);
}

/** Finds a deep link among a process's command-line arguments (how Windows and Linux hand one to the app), or null. */
export function deepLinkInArgv(argv: readonly string[]): string | null {
  const prefix = `${DEEP_LINK_SCHEME}:`;
  return argv.find((argument) => argument.slice(0, prefix.length).toLowerCase() === prefix) ?? null;
}
