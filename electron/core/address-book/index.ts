// The addressBook module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export { type AddressBookEntry, listAddressBook, recordAddressUse } from './address-book-table';
export { addressBookHandlers, findBookRow, forgetBookRow, recordBookProposal, writeBookLabel } from './handlers';
export { payeeNameOf, payeesHandlers } from './payees';
