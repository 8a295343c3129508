// Messages of the desk's payees area, English and German (ICU message syntax: {name}, {count, plural, one {…} other {…}}):
// payees, the address book and its labels file, deposit addresses, tools, the poisoning radar, webhooks, and the small
// components they share (QR code, explorer link, copy button, label cell, record fields).
import type { Translation } from './translation';

export const en = {
  'payees.qr.making': 'Making the QR code…',
  'payees.qr.alt': 'QR code for {content}',
  'payees.qr.svg': 'This QR code came as SVG, which this screen does not draw.',
  'payees.explorer.title': '{value} — open on {explorer}',
  'payees.explorer.openAddress': 'open this address ({value})',
  'payees.explorer.openTransaction': 'open this transaction ({value})',
  'payees.explorer.openOn': '(open on {explorer})',
  'payees.copy.copy': 'Copy',
  'payees.copy.copied': 'Copied',
  'payees.copy.failed': 'Could not copy: select the text and press Ctrl+C',
  'payees.labelCell.removeTitle': 'Remove the label',
  'payees.labelCell.setTitle': 'Set the label',
  'payees.labelCell.removeDescription': 'The label of {what} will be removed.',
  'payees.labelCell.setDescription': '{what} will be labelled “{label}”. Labels are hints for people; the audit log records who set them.',
  'payees.labelCell.removeConfirm': 'Remove label',
  'payees.labelCell.saveConfirm': 'Save label',
  'payees.labelCell.addLabel': 'Add label',
  'payees.labelCell.addLabelTo': 'Add label to {what}',
  'payees.labelCell.edit': 'Edit',
  'payees.labelCell.editLabelOf': 'Edit the label of {what}',
  'payees.labelCell.labelOf': 'Label of {what}',
  'payees.labelCell.save': 'Save',
  'payees.labelCell.cancel': 'Cancel',
  'payees.recordFields.empty': '(empty)',
} as const;

export const de: Translation<typeof en> = {
  'payees.qr.making': 'QR-Code wird erstellt…',
  'payees.qr.alt': 'QR-Code für {content}',
  'payees.qr.svg': 'Dieser QR-Code kam als SVG, das diese Ansicht nicht darstellt.',
  'payees.explorer.title': '{value} — in {explorer} öffnen',
  'payees.explorer.openAddress': 'diese Adresse öffnen ({value})',
  'payees.explorer.openTransaction': 'diese Transaktion öffnen ({value})',
  'payees.explorer.openOn': '(in {explorer} öffnen)',
  'payees.copy.copy': 'Kopieren',
  'payees.copy.copied': 'Kopiert',
  'payees.copy.failed': 'Kopieren fehlgeschlagen: Text markieren und Strg+C drücken',
  'payees.labelCell.removeTitle': 'Bezeichnung entfernen',
  'payees.labelCell.setTitle': 'Bezeichnung setzen',
  'payees.labelCell.removeDescription': 'Die Bezeichnung von {what} wird entfernt.',
  'payees.labelCell.setDescription':
    '{what} erhält die Bezeichnung „{label}“. Bezeichnungen sind Hinweise für Menschen; das Prüfprotokoll hält fest, wer sie gesetzt hat.',
  'payees.labelCell.removeConfirm': 'Bezeichnung entfernen',
  'payees.labelCell.saveConfirm': 'Bezeichnung speichern',
  'payees.labelCell.addLabel': 'Bezeichnen',
  'payees.labelCell.addLabelTo': '{what} eine Bezeichnung geben',
  'payees.labelCell.edit': 'Bearbeiten',
  'payees.labelCell.editLabelOf': 'Bezeichnung von {what} bearbeiten',
  'payees.labelCell.labelOf': 'Bezeichnung von {what}',
  'payees.labelCell.save': 'Speichern',
  'payees.labelCell.cancel': 'Abbrechen',
  'payees.recordFields.empty': '(leer)',
};
