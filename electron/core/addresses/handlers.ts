// The addresses feature: deposit addresses, their QR codes, and the address and transfer checks
// (addresses/*, tools/checkAddress, tools/checkTransfer).
import { CHAIN_INFO, chainsFor, depositNotesFor, isAddressType, validateAddress } from '../../chains';
import type { DepositAddressView, TreasuryHandlers } from '../../contract';
import { ProtocolError } from '../../protocol';
import { qrPngDataUrl, qrSvg } from './qr';
import type { Kernel } from '../kernel/kernel';
import type { AuditRecorder } from '../audit';
import type { ProfileSelection } from '../profiles';
import type { MerchantConnection } from '../connection';
import { DeskError } from '../kernel/errors';
import { actingAs, signAction } from '../operators';
import { listDepositAddresses, saveDepositAddress, type DepositAddress } from './addresses-table';
import { newUserOrder } from '../withdrawals';
import type { Handle } from '../kernel/handle';

export interface AddressesFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection & MerchantConnection;
}

export function addressView(address: DepositAddress): DepositAddressView {
  const type = isAddressType(address.addressType) ? address.addressType : 'trx';
  return {
    address: address.address,
    addressType: type,
    userOrder: address.userOrder,
    createdAt: address.createdAt,
    chains: chainsFor(type),
    notes: depositNotesFor(type),
  };
}

export function addressesHandlers(
  { context }: AddressesFeatureDeps,
  handle: Handle,
): Pick<TreasuryHandlers, 'addresses/create' | 'addresses/list' | 'addresses/qr' | 'tools/checkAddress' | 'tools/checkTransfer'> {
  const profileName = (): string => context.activeProfile().name;
  return {
    'addresses/create': handle('addresses/create', async (request) => {
      const operator = await actingAs(context, request.as, 'createAddress');
      const profile = profileName();
      const userOrder = request.userOrder ?? newUserOrder(context.now());
      const created = await (await context.merchantClient()).createAddress({ userOrder, addressType: request.addressType });
      const saved = saveDepositAddress(context.db, profile, created, context.now());
      if (saved.conflict) {
        await signAction(operator, 'addresses/conflict', userOrder, { answered: created.address, stored: saved.address.address });
        throw new DeskError('conflict', `userOrder ${userOrder} is already cached with another address; the cached one is kept. Check with the platform.`);
      }
      if (saved.isNew) await signAction(operator, 'addresses/create', userOrder, { address: created.address, addressType: created.addressType });
      return addressView(saved.address);
    }),
    'addresses/list': handle('addresses/list', () => {
      const all: DepositAddressView[] = [];
      let after: string | null = null;
      do {
        const page = listDepositAddresses(context.db, { profile: profileName(), limit: 500, after });
        all.push(...page.rows.map(addressView));
        after = page.nextCursor;
      } while (after !== null);
      return all;
    }),
    'addresses/qr': handle('addresses/qr', async (request) => {
      if (request.address.trim() === '' || request.address !== request.address.trim()) {
        throw new DeskError('invalidInput', 'the address is empty or has spaces at the start or end', { address: 'no surrounding spaces' });
      }
      const data = request.format === 'png' ? await qrPngDataUrl(request.address) : await qrSvg(request.address);
      return { format: request.format, data, content: request.address };
    }),
    'tools/checkAddress': handle('tools/checkAddress', async (request) => {
      const check = validateAddress(request.chain, request.address);
      let service: boolean | null = null;
      if (check.valid) {
        try {
          service = (await context.publicClient().isAddress(request.address, CHAIN_INFO[request.chain].nativeSymbol)).valid;
        } catch (error) {
          if (!(error instanceof ProtocolError) && !(error instanceof DeskError)) throw error;
        }
      }
      return { valid: check.valid, reason: check.valid ? null : check.reason, chain: request.chain, service };
    }),
    'tools/checkTransfer': handle('tools/checkTransfer', (request) => context.publicClient().checkTransfer(request.txid, request.currency)),
  };
}
