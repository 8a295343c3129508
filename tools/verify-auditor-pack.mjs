// The offline auditor pack's verifier (docs/auditor-pack.md): `node tools/verify-auditor-pack.mjs pack.json`, plain
// Node >= 20, no install, node: built-ins only. It checks every audit row's hash, link and Ed25519 signature under the
// key the roster (replayed here from the pack's own rows) or the desk gave its signer at that row, the signed
// checkpoint, four-eyes for every withdrawal sent in the period, and that the statement's totals follow from the
// verified rows (exact decimal arithmetic on BigInt). Prints each check; exit 0 when all hold, 1 naming the first
// place that fails, 2 when the file cannot be read.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const PACK_FORMAT = 'treasury-desk/auditor-pack';
export const PACK_VERSION = 1;
const STATEMENT_DOMAIN = 'treasury-desk/statement/v1\n';
const AUDIT_ROW_DOMAIN = 'treasury-desk/audit/v2\n';
const CHECKPOINT_DOMAIN = 'treasury-desk/checkpoint/v1\n';
const CHAIN_GENESIS = '0'.repeat(64);
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const STATEMENT_KEYS = 'at,body,keyId,kind,operator,prev,profile,seq,subject,v';
/** What each role may do with a withdrawal (electron/core/auth/roles.ts). */
const ROLE_MAY = {
  request: new Set(['initiator', 'admin']),
  approve: new Set(['approver', 'admin']),
  submit: new Set(['initiator', 'approver', 'admin']),
};

/** A check that does not hold, with the place it names (an audit row, a withdrawal, a statement line). */
export class PackFailure extends Error {
  constructor(place, reason) {
    super(`${place}: ${reason}`);
    this.place = place;
  }
}

// ---- canonical text, hashes, keys (electron/core/statements/canonical.ts, statement.ts, keys.ts) ------------------

/** JSON with keys sorted by UTF-16 code unit at every depth, strings in NFC, safe integers only. */
export function encodeCanonical(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new Error(`only safe integers are canonical, got ${value}`);
      return String(value);
    case 'string':
      return JSON.stringify(value.normalize('NFC'));
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(encodeCanonical).join(',')}]`;
      const byName = new Map();
      for (const key of Object.keys(value)) {
        const name = key.normalize('NFC');
        if (byName.has(name)) throw new Error(`two keys are ${JSON.stringify(name)} in NFC`);
        byName.set(name, key);
      }
      const members = [];
      for (const name of [...byName.keys()].sort()) {
        const member = value[byName.get(name)];
        if (member === undefined) throw new Error(`${name} is undefined`);
        members.push(`${JSON.stringify(name)}:${encodeCanonical(member)}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      throw new Error(`a ${typeof value} has no canonical form`);
  }
}

export function sha256Hex(text) {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 (hex) of a value's canonical text: the id of an intent, a founding. */
export function canonicalHash(value) {
  return sha256Hex(encodeCanonical(value));
}

/** The hash of an audit row over the domain, the statement text and its signature. */
export function auditRowHash(statementText, signature) {
  return sha256Hex(`${AUDIT_ROW_DOMAIN}${statementText}\n${signature}`);
}

/** `ABCD-EFGH-IJKL-MNOP`: the first 80 bits of SHA-256 over `bytes`, RFC 4648 base32. */
export function readableFingerprint(bytes) {
  const digest = createHash('sha256').update(bytes).digest().subarray(0, 10);
  let bits = '';
  for (const byte of digest) bits += byte.toString(2).padStart(8, '0');
  let code = '';
  for (let index = 0; index < 80; index += 5) code += BASE32[Number.parseInt(bits.slice(index, index + 5), 2)];
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}-${code.slice(12, 16)}`;
}

export function keyIdOf(publicKeyBase64) {
  return readableFingerprint(Buffer.from(publicKeyBase64, 'base64'));
}

function publicKeyObject(publicKeyBase64) {
  const raw = Buffer.from(String(publicKeyBase64), 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== publicKeyBase64) return null;
  try {
    return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

/** Whether `signature` (base64) is an Ed25519 signature of `message` by the key. */
export function signatureHolds(publicKeyBase64, message, signature) {
  const key = publicKeyObject(publicKeyBase64);
  const bytes = Buffer.from(String(signature), 'base64');
  if (key === null || bytes.length !== 64) return false;
  try {
    return verify(null, Buffer.from(message, 'utf8'), key, bytes);
  } catch {
    return false;
  }
}

// ---- exact decimals on BigInt ------------------------------------------------------------------------------------

/** A decimal string as an integer of units and a scale; throws on anything else (no floats anywhere). */
export function parseDecimal(text) {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(text));
  if (match === null) throw new Error(`${JSON.stringify(text)} is not a decimal amount`);
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2]}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

function atScale(value, scale) {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function addDecimal(a, b) {
  const scale = Math.max(a.scale, b.scale);
  return { units: atScale(a, scale) + atScale(b, scale), scale };
}

export function negateDecimal(a) {
  return { units: -a.units, scale: a.scale };
}

export function decimalEquals(a, b) {
  const scale = Math.max(a.scale, b.scale);
  return atScale(a, scale) === atScale(b, scale);
}

export function formatDecimal(value) {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

function sum(values) {
  return values.reduce((total, value) => addDecimal(total, parseDecimal(value)), { units: 0n, scale: 0 });
}

// ---- the roster, replayed from the rows (electron/core/ledger/roster.ts, the essentials) ------------------------

const lower = (name) => String(name).toLowerCase();
const disjoint = (a, b) => !a.some((member) => b.includes(member));

class Roster {
  operators = new Map();
  proposals = new Map();
  devices = new Map();
  foundingSignatures = new Map();

  active() {
    return [...this.operators.values()].filter((operator) => operator.status === 'active');
  }

  independentAdmins() {
    const admins = this.active().filter((operator) => operator.role === 'admin');
    return admins.some((a, i) => admins.slice(i + 1).some((b) => disjoint(a.party, b.party)));
  }

  applyProposal(proposal, seq, confirmer) {
    proposal.state = 'applied';
    const current = this.operators.get(lower(proposal.subject));
    switch (proposal.kind) {
      case 'enrol':
      case 'rekey': {
        const self = lower(proposal.subject);
        const proposer = this.operators.get(lower(proposal.proposer));
        const party = confirmer === null ? [...new Set([self, ...(proposer?.party ?? [lower(proposal.proposer)])])] : [self];
        this.operators.set(self, {
          name: proposal.subject,
          role: proposal.kind === 'enrol' ? proposal.body.role : (current?.role ?? 'viewer'),
          status: 'active',
          keyId: proposal.accepted.keyId,
          publicKey: proposal.accepted.publicKey,
          devices: [],
          party,
          enrolledAt: current?.enrolledAt ?? seq,
        });
        return;
      }
      case 'role':
        if (current) current.role = proposal.body.role;
        return;
      case 'disable':
        if (current) current.status = 'disabled';
        return;
    }
  }
}

/** The public key `keyId` names among an operator's keys in force (main key or a confirmed device key), or null. */
function operatorKey(operator, keyId) {
  if (operator.keyId === keyId) return operator.publicKey;
  return operator.devices.find((device) => device.keyId === keyId)?.publicKey ?? null;
}

// ---- the checks ---------------------------------------------------------------------------------------------------

function parseRowStatement(row, place) {
  let statement;
  try {
    statement = JSON.parse(row.statement);
    if (encodeCanonical(statement) !== row.statement) throw new Error('not canonical');
  } catch {
    throw new PackFailure(place, 'its statement is not canonical JSON: the row was edited');
  }
  if (statement === null || typeof statement !== 'object' || Array.isArray(statement) || Object.keys(statement).sort().join(',') !== STATEMENT_KEYS) {
    throw new PackFailure(place, 'its statement is not a signed statement');
  }
  return statement;
}

/** Verifies a pack; `say(line)` gets each check that holds. Throws PackFailure at the first that does not. */
export function verifyPack(pack, say = () => {}) {
  if (pack === null || typeof pack !== 'object' || pack.format !== PACK_FORMAT) throw new PackFailure('pack', `not an auditor pack (format must be ${PACK_FORMAT})`);
  if (pack.version !== PACK_VERSION) throw new PackFailure('pack', `version ${pack.version} is not one this verifier knows (${PACK_VERSION})`);
  const chain = Array.isArray(pack.chain) ? pack.chain : [];
  if (chain.length === 0) throw new PackFailure('pack', 'holds no audit rows');

  // Desk keys: this workstation's (the auditor compares its fingerprint with the desk's own), then those a verified
  // founding or workstation enrolment names.
  const deskKeys = new Map();
  const namedLater = (Array.isArray(pack.deskKeys) ? pack.deskKeys : []).filter((key) => key.namedBy !== null);
  for (const key of pack.deskKeys ?? []) if (key.namedBy === null && publicKeyObject(key.publicKey) !== null) deskKeys.set(keyIdOf(key.publicKey), key.publicKey);
  if (deskKeys.size === 0) throw new PackFailure('pack', "names no desk key of its own");
  say(`desk key ${[...deskKeys.keys()].join(', ')} (compare it with the desk key id the desk itself shows)`);

  const rosters = new Map();
  const rosterOf = (profile) => {
    if (!rosters.has(profile)) rosters.set(profile, new Roster());
    return rosters.get(profile);
  };
  /** Withdrawal decisions by profile and subject. */
  const decisions = new Map();
  const hashes = new Map();
  let previous = CHAIN_GENESIS;
  let operatorRows = 0;
  let deskRows = 0;

  for (let index = 0; index < chain.length; index += 1) {
    try {
      checkRow(index);
    } catch (error) {
      if (error instanceof PackFailure) throw error;
      throw new PackFailure(`audit row ${index + 1}`, `it is malformed (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  /** Checks the row at `index` and applies it to the roster, the desk keys and the withdrawal decisions. */
  function checkRow(index) {
    const row = chain[index];
    const expected = index + 1;
    const place = `audit row ${expected}`;
    if (row.seq !== expected) {
      throw new PackFailure(place, row.seq > expected ? `is missing: row ${row.seq} follows row ${expected - 1}` : `row ${row.seq} appears where row ${expected} belongs`);
    }
    if (auditRowHash(row.statement, row.signature) !== row.hash) throw new PackFailure(place, 'its hash does not match its statement and signature: the row was edited');
    const s = parseRowStatement(row, place);
    if (s.seq !== row.seq) throw new PackFailure(place, `its signed seq is ${s.seq}: the row was moved`);
    if (s.prev !== previous) throw new PackFailure(place, `it links to ${s.prev.slice(0, 12)}…, not to row ${expected - 1} (${previous.slice(0, 12)}…): a row before it was removed or replaced`);
    const message = STATEMENT_DOMAIN + row.statement;
    const profile = s.profile ?? '';
    const roster = rosterOf(profile);
    for (const key of namedLater) {
      if (key.namedBy < row.seq && !deskKeys.has(key.keyId) && hashes.has(key.namedBy) && chain[key.namedBy - 1].statement.includes(JSON.stringify(key.publicKey))) deskKeys.set(keyIdOf(key.publicKey), key.publicKey);
    }

    if (s.operator === null) {
      const publicKey = deskKeys.get(s.keyId);
      if (publicKey === undefined) throw new PackFailure(place, `signed by desk key ${s.keyId}, which is not a desk key in force`);
      if (!signatureHolds(publicKey, message, row.signature)) throw new PackFailure(place, `its signature does not verify with desk key ${s.keyId}: the row was edited`);
      deskRows += 1;
    } else if (s.kind === 'found') {
      const admins = Array.isArray(s.body.admins) ? s.body.admins : [];
      const me = admins.find((admin) => lower(admin.name) === lower(s.operator));
      if (!me || keyIdOf(me.publicKey) !== s.keyId || !signatureHolds(me.publicKey, message, row.signature)) throw new PackFailure(place, 'a founding row must be signed by one of the admins it names: its signature does not verify');
      if (s.subject !== canonicalHash(s.body)) throw new PackFailure(place, 'the founding subject is not the hash of its body');
      const signed = roster.foundingSignatures.get(s.subject) ?? new Set();
      signed.add(lower(me.name));
      roster.foundingSignatures.set(s.subject, signed);
      if (signed.size === admins.length) {
        for (const admin of admins) {
          roster.operators.set(lower(admin.name), { name: admin.name, role: 'admin', status: 'active', keyId: keyIdOf(admin.publicKey), publicKey: admin.publicKey, devices: [], party: [lower(admin.name)], enrolledAt: row.seq });
        }
        const deskKey = s.body.deskKey?.publicKey;
        if (typeof deskKey === 'string' && publicKeyObject(deskKey) !== null) deskKeys.set(keyIdOf(deskKey), deskKey);
      }
      operatorRows += 1;
    } else if (s.kind === 'accept' || s.kind === 'device') {
      // Signed by the key it brings: an invitation accepted, or a device key proposed.
      const publicKey = s.body.publicKey;
      if (typeof publicKey !== 'string' || keyIdOf(publicKey) !== s.keyId || !signatureHolds(publicKey, message, row.signature)) throw new PackFailure(place, `its signature does not verify with the key it brings (${s.keyId})`);
      if (s.kind === 'device') {
        const operator = roster.operators.get(lower(s.operator));
        if (!operator || operator.status !== 'active') throw new PackFailure(place, `${s.operator} proposes a device key but is not an active operator`);
        roster.devices.set(row.hash, { operator: lower(s.operator), keyId: s.keyId, publicKey });
      } else {
        const proposal = roster.proposals.get(s.body.proposal);
        if (!proposal || proposal.state !== 'open' || (proposal.kind !== 'enrol' && proposal.kind !== 'rekey') || lower(proposal.subject) !== lower(s.operator) || proposal.accepted) {
          throw new PackFailure(place, `${s.operator} accepts no open invitation for them`);
        }
        proposal.accepted = { keyId: s.keyId, publicKey };
        if (!proposal.needsConfirmation || proposal.confirmedBy !== null) roster.applyProposal(proposal, row.seq, proposal.confirmedBy);
      }
      operatorRows += 1;
    } else {
      // Every other operator row: signed by the signer's key in force at this row (a profile-less row: any profile's).
      const candidates = s.profile === null ? [...rosters.values()] : [roster];
      const operator = candidates.map((each) => each.operators.get(lower(s.operator))).find((each) => each !== undefined && operatorKey(each, s.keyId) !== null);
      if (!operator) throw new PackFailure(place, `signed by ${s.operator} with key ${s.keyId}, which is not ${s.operator}'s key in force at this row`);
      if (operator.status !== 'active') throw new PackFailure(place, `signed by ${s.operator}, who is disabled at this row`);
      if (!signatureHolds(operatorKey(operator, s.keyId), message, row.signature)) throw new PackFailure(place, `its signature does not verify with ${s.operator}'s key ${s.keyId}: the row was edited`);
      operatorRows += 1;
      if (['enrol', 'rekey', 'role', 'disable'].includes(s.kind)) {
        if (operator.role !== 'admin') throw new PackFailure(place, `${s.operator} proposes a roster change but is not an admin`);
        const proposal = { kind: s.kind, subject: s.subject, body: s.body, proposer: s.operator, needsConfirmation: roster.independentAdmins(), accepted: null, confirmedBy: null, state: 'open' };
        roster.proposals.set(row.hash, proposal);
        if (!proposal.needsConfirmation && (s.kind === 'role' || s.kind === 'disable')) roster.applyProposal(proposal, row.seq, null);
      } else if (s.kind === 'withdraw-proposal') {
        const proposal = roster.proposals.get(s.body.proposal);
        if (proposal) proposal.state = 'withdrawn';
      } else if (s.kind === 'confirm') {
        const device = roster.devices.get(s.body.proposal);
        const proposal = roster.proposals.get(s.body.proposal);
        if (device) {
          const holder = roster.operators.get(device.operator);
          if (holder) holder.devices = [...holder.devices, { keyId: device.keyId, publicKey: device.publicKey }];
          roster.devices.delete(s.body.proposal);
        } else if (proposal && proposal.state === 'open') {
          if (operator.role !== 'admin') throw new PackFailure(place, `${s.operator} confirms a roster change but is not an admin`);
          const proposer = roster.operators.get(lower(proposal.proposer));
          if (!proposer || !disjoint(proposer.party, operator.party)) throw new PackFailure(place, `${s.operator} is not independent of ${proposal.proposer}, who proposed it`);
          proposal.confirmedBy = s.operator;
          if ((proposal.kind !== 'enrol' && proposal.kind !== 'rekey') || proposal.accepted) roster.applyProposal(proposal, row.seq, s.operator);
        }
      } else if (['request', 'approve', 'reject', 'cancel', 'submit'].includes(s.kind)) {
        const key = `${profile}\n${s.subject}`;
        if (!decisions.has(key)) decisions.set(key, []);
        decisions.get(key).push({ seq: row.seq, statement: s, signer: { ...operator, party: [...operator.party] } });
      }
    }
    hashes.set(row.seq, row.hash);
    previous = row.hash;
  }
  const last = chain.length;
  say(`chain: ${last} rows linked from row 1 to row ${last}, each hash matching its statement and signature`);
  say(`signatures: ${operatorRows} operator rows under the keys the replayed roster gave them, ${deskRows} desk rows under desk keys`);

  // The checkpoint and the head.
  const { checkpoint, signature } = pack.checkpoint ?? {};
  if (!checkpoint || typeof checkpoint !== 'object') throw new PackFailure('checkpoint', 'the pack holds none');
  const checkpointKey = deskKeys.get(keyIdOf(String(checkpoint.publicKey)));
  if (checkpointKey !== checkpoint.publicKey) throw new PackFailure('checkpoint', `signed by key ${keyIdOf(String(checkpoint.publicKey))}, which is not a desk key in force`);
  if (!signatureHolds(checkpointKey, CHECKPOINT_DOMAIN + encodeCanonical(checkpoint), signature)) throw new PackFailure('checkpoint', 'its signature does not verify: it was altered');
  if (checkpoint.deskId !== pack.deskId) throw new PackFailure('checkpoint', 'it belongs to another desk');
  if (hashes.get(checkpoint.seq) !== checkpoint.headHash) throw new PackFailure(`audit row ${checkpoint.seq}`, 'is not the row the signed checkpoint recorded: the chain was rewritten or cut short');
  const head = pack.auditHead ?? {};
  if (head.seq !== last || head.hash !== hashes.get(last) || head.fingerprint !== readableFingerprint(Buffer.from(String(head.hash), 'hex'))) {
    throw new PackFailure('audit head', `the pack's head (row ${head.seq}, ${head.fingerprint}) is not its last row`);
  }
  say(`checkpoint: row ${checkpoint.seq} signed by desk key ${keyIdOf(checkpoint.publicKey)}; head row ${last}, fingerprint ${head.fingerprint}`);

  // Four-eyes for every withdrawal sent in the period, and the period's withdrawals by currency.
  const statement = pack.statement ?? {};
  const { from, to } = statement;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from >= to) throw new PackFailure('statement', 'its period is not a period');
  if (statement.profile !== pack.profile) throw new PackFailure('statement', `it is of profile ${statement.profile}, the pack of ${pack.profile}`);
  if (statement.auditHead !== null && hashes.get(statement.auditHead?.seq) !== statement.auditHead?.hash) throw new PackFailure('statement', 'the audit head it names is not a row of the chain');
  const sent = new Map();
  let fourEyes = 0;
  for (const [key, rows] of decisions) {
    if (!key.startsWith(`${pack.profile}\n`)) continue;
    const request = rows.find((entry) => entry.statement.kind === 'request');
    const submits = rows.filter((entry) => entry.statement.kind === 'submit' && entry.statement.at >= from && entry.statement.at < to);
    if (submits.length === 0) continue;
    if (!request) throw new PackFailure(`audit row ${submits[0].seq}`, 'submits a withdrawal the chain never requested');
    const intent = request.statement.body.intent;
    if (!intent || typeof intent !== 'object') throw new PackFailure(`audit row ${request.seq}`, 'a batch request: this verifier judges single withdrawals only');
    const place = `withdrawal ${intent.userOrder} (request row ${request.seq})`;
    if (request.statement.subject !== canonicalHash(intent)) throw new PackFailure(place, 'the request is not about the intent it carries');
    // Approvals and the submit are over the same intent: their subject is its hash, and the fingerprint they show is its.
    const fingerprint = readableFingerprint(encodeCanonical(intent));
    const shown = rows.find((entry) => entry.statement.body.fingerprint !== undefined && entry.statement.body.fingerprint !== fingerprint);
    if (shown) throw new PackFailure(place, `row ${shown.seq} shows fingerprint ${shown.statement.body.fingerprint}, not the intent's ${fingerprint}`);
    const initiator = request.signer;
    if (!ROLE_MAY.request.has(initiator.role)) throw new PackFailure(place, `${initiator.name} may not request withdrawals`);
    const approvers = new Map();
    for (const entry of rows) {
      if (entry.seq <= request.seq) continue;
      const who = entry.signer;
      if (entry.statement.kind === 'reject' || entry.statement.kind === 'cancel') throw new PackFailure(place, `${who.name} ${entry.statement.kind === 'reject' ? 'rejected' : 'cancelled'} it at row ${entry.seq}`);
      if (entry.statement.kind === 'approve') {
        if (!ROLE_MAY.approve.has(who.role)) throw new PackFailure(place, `row ${entry.seq}: ${who.name} may not approve withdrawals`);
        const counts = lower(who.name) !== lower(initiator.name) && disjoint(who.party, initiator.party) && who.enrolledAt < request.seq;
        if (counts && !approvers.has(lower(who.name)) && [...approvers.values()].every((party) => disjoint(party, who.party))) approvers.set(lower(who.name), who.party);
      }
      if (entry.statement.kind === 'submit') {
        if (!ROLE_MAY.submit.has(who.role)) throw new PackFailure(place, `row ${entry.seq}: ${who.name} may not submit withdrawals`);
        const required = Math.max(1, Number.isSafeInteger(intent.requiredApprovals) ? intent.requiredApprovals : 1);
        if (approvers.size < required) {
          throw new PackFailure(place, `submitted at row ${entry.seq} with ${approvers.size} independent approval${approvers.size === 1 ? '' : 's'} of the ${required} required (none may be ${initiator.name} or of their party)`);
        }
        // What follows the first submit (a late cancel, a resumed submit) does not change what was sent.
        break;
      }
    }
    fourEyes += 1;
    const list = sent.get(intent.currency) ?? [];
    list.push(intent.amount);
    sent.set(intent.currency, list);
  }
  say(`four-eyes: ${fourEyes} withdrawal${fourEyes === 1 ? '' : 's'} sent in the period, each requested, approved by independent operators and submitted after`);

  // The statement's totals.
  const currencies = Array.isArray(statement.currencies) ? statement.currencies : [];
  for (const currency of sent.keys()) {
    if (!currencies.some((line) => line.currency === currency)) throw new PackFailure(`statement ${currency}`, 'the chain sent withdrawals in this currency, but the statement has no line for it');
  }
  for (const line of currencies) {
    const place = `statement ${line.currency}`;
    try {
      checkStatementLine(line, place, sent.get(line.currency) ?? [], say);
    } catch (error) {
      if (error instanceof PackFailure) throw error;
      throw new PackFailure(place, error instanceof Error ? error.message : String(error));
    }
  }
  return { rows: last, withdrawals: fourEyes };
}

/** One currency's line: its withdrawals are the signed ones, and its balance movement adds up to its unexplained part. */
function checkStatementLine(line, place, amounts, say) {
  const signedTotal = sum(amounts);
  if (line.withdrawals.count !== amounts.length || !decimalEquals(parseDecimal(line.withdrawals.amount), signedTotal)) {
    throw new PackFailure(`${place} withdrawals`, `the statement says ${line.withdrawals.count} for ${line.withdrawals.amount}; the verified rows sent ${amounts.length} for ${formatDecimal(signedTotal)}`);
  }
  if (line.opening === null || line.closing === null) {
    if (line.unexplained !== null) throw new PackFailure(`${place} unexplained`, 'a line without balance readings explains nothing');
    say(`${place}: no balance readings; withdrawals ${amounts.length} for ${formatDecimal(signedTotal)} as signed`);
    return;
  }
  // closing - (opening + deposits - withdrawals - withdrawal fees + refunds) = unexplained, exactly.
  const expected = [line.opening.available, line.deposits.amount, negateDecimal(parseDecimal(line.withdrawals.amount)), negateDecimal(parseDecimal(line.withdrawalFees)), line.refunds.amount]
    .map((value) => (typeof value === 'string' ? parseDecimal(value) : value))
    .reduce(addDecimal);
  const difference = addDecimal(parseDecimal(line.closing.available), negateDecimal(expected));
  if (line.unexplained === null || !decimalEquals(difference, parseDecimal(line.unexplained))) {
    throw new PackFailure(place, `closing ${line.closing.available} - (opening ${line.opening.available} + deposits ${line.deposits.amount} - withdrawals ${line.withdrawals.amount} - fees ${line.withdrawalFees} + refunds ${line.refunds.amount}) is ${formatDecimal(difference)}, but the statement says unexplained ${line.unexplained}`);
  }
  say(`${place}: withdrawals ${amounts.length} for ${formatDecimal(signedTotal)} as signed; closing ${line.closing.available} = opening + deposits - withdrawals - fees + refunds + unexplained ${line.unexplained}`);
}

function main(argv) {
  const path = argv[2];
  if (path === undefined || argv.length > 3) {
    console.error('usage: node tools/verify-auditor-pack.mjs PACK.json');
    return 2;
  }
  let pack;
  try {
    pack = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    console.error(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  try {
    verifyPack(pack, (line) => console.log(`ok    ${line}`));
  } catch (error) {
    if (!(error instanceof PackFailure)) {
      console.log(`FAIL  pack: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    console.log(`FAIL  ${error.message}`);
    return 1;
  }
  console.log('PASS  every check holds');
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv);
