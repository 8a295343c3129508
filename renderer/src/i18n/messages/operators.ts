// Messages of the desk's operators area, English and German (ICU message syntax: {name}, {count, plural, one {…} other {…}}):
// the Operators screen (roster, proposals, invitations, approval groups, one's own passphrase), the "who is acting?" dialog
// and the demo operators. A role inside a sentence is an ICU select on the role's id (viewer, initiator, approver, admin),
// so each language names it its own way.
import type { Translation } from './translation';

export const en = {
  // Words several places of the area share.
  'operators.cancel': 'Cancel',
  'operators.propose': 'Propose',
  'operators.list.and': '{first} and {second}',
  'operators.hint.adminConfirms': 'An admin confirms with their own passphrase.',
  'operators.hint.adminConfirmsSecond': 'An admin confirms with their own passphrase. With two independent admins, a second one confirms it too.',

  // Roles, their names in a list and what each may do.
  'operators.role.viewer': 'Viewer',
  'operators.role.initiator': 'Initiator',
  'operators.role.approver': 'Approver',
  'operators.role.admin': 'Administrator',
  'operators.role.viewer.text': 'Reads balances and history.',
  'operators.role.initiator.text': 'Also creates addresses, requests and sends withdrawals.',
  'operators.role.approver.text': 'Also approves, rejects and sends withdrawals.',
  'operators.role.admin.text': 'Also manages operators, policies and settings.',

  // An operator's status in the roster.
  'operators.status.invited': 'invited',
  'operators.status.active': 'active',
  'operators.status.disabled': 'disabled',

  // What an open proposal is about (its badge).
  'operators.proposal.kind.enrol': 'Invitation',
  'operators.proposal.kind.rekey': 'New key',
  'operators.proposal.kind.role': 'Role change',
  'operators.proposal.kind.disable': 'Disable',
  'operators.proposal.kind.policy': 'Policy change',
  'operators.proposal.kind.book': 'Address-book addition',
  'operators.proposal.kind.profileAdd': 'Profile addition',
  'operators.proposal.kind.profileRemove': 'Profile removal',
  'operators.proposal.kind.unfreeze': 'Lift of the freeze on sending',
  'operators.proposal.kind.group': 'Approval group change',
  'operators.proposal.kind.governance': 'Governance change',
  'operators.proposal.kind.radarClear': 'Poisoning-radar clearance',
  'operators.proposal.kind.payees': 'Payees addition',

  // The Operators screen.
  'operators.screen.reading': 'Reading the roster…',
  'operators.screen.noProfile': 'No merchant profile is active: add or select one under Connection.',

  // Four-eyes.
  'operators.fourEyes.label': 'Four-eyes',
  'operators.fourEyes.cannot': 'This desk cannot give four-eyes',
  'operators.fourEyes.holds': 'Four-eyes holds',
  'operators.fourEyes.holdsText':
    "This desk has two independent admins: roster and policy changes wait for a second admin's confirmation, and a withdrawal counts only approvals from operators independent of its initiator and of each other.",

  // The roster.
  'operators.roster.title': 'Roster',
  'operators.roster.intro':
    "Each operator has their own signing key, sealed by a passphrase only they know. A party is everyone whose decisions one person could control: an operator enrolled by one admin alone belongs to that admin's party.",
  'operators.roster.name': 'Name',
  'operators.roster.role': 'Role',
  'operators.roster.status': 'Status',
  'operators.roster.keyFingerprint': 'Key fingerprint',
  'operators.roster.party': 'Party',
  'operators.roster.enrolledBy': 'Enrolled by',
  'operators.roster.lockedUntil': 'Locked until',
  'operators.roster.actions': 'Actions',
  'operators.roster.founder': 'founder',
  'operators.roster.founding': 'founding',
  'operators.roster.lockedOutUntil': '<badge>locked out</badge> until {until}',
  'operators.roster.wrongPassphrases': '{count, plural, one {# wrong passphrase} other {# wrong passphrases}}',
  'operators.roster.changeRole': 'Change role',
  'operators.roster.changeRoleOf': 'Change role of {name}',
  'operators.roster.rekey': 'Re-key',
  'operators.roster.rekeyOf': 'Re-key {name}',
  'operators.roster.disable': 'Disable',

  // Disabling an operator.
  'operators.disable.title': 'Disable {name}',
  'operators.disable.description': '{name} will no longer be able to unlock the desk or sign anything. Their past decisions stay in the audit log.',
  'operators.disable.proposed': 'Proposed: disable {name}. It waits for confirmation by another admin, independent of you.',
  'operators.disable.done': 'Done: disable {name}.',

  // Re-keying an operator.
  'operators.rekey.title': 'Give {name} a new key',
  'operators.rekey.description':
    'For an operator who lost their passphrase: you get a one-time code for {name}, who chooses a new passphrase with it under "I have an invitation". Their current key stops working once the new one is in force.',
  'operators.rekey.confirm': 'Make a code',

  // Changing an operator's role.
  'operators.roleEditor.label': 'Role of {name}',
  'operators.roleEditor.newRole': 'New role for {name}',
  'operators.roleEditor.title': 'Change the role of {name}',
  'operators.roleEditor.description':
    '{name} becomes {role, select, viewer {viewer} initiator {initiator} approver {approver} other {administrator}}: {text}',
  'operators.roleEditor.proposed':
    'Proposed: make {name} {role, select, viewer {viewer} initiator {initiator} approver {approver} other {admin}}. It waits for confirmation by another admin, independent of you.',
  'operators.roleEditor.done': 'Done: make {name} {role, select, viewer {viewer} initiator {initiator} approver {approver} other {admin}}.',

  // Proposals waiting for someone.
  'operators.proposals.title': 'Waiting for someone',
  'operators.proposals.intro':
    "Invitations wait for the invited operator to choose their passphrase; with two independent admins, every roster and policy change also waits for a second admin's confirmation.",
  'operators.proposals.empty': 'Nothing waits.',
  'operators.proposals.proposedBy': 'proposed by {proposer} on {at}',
  'operators.proposals.waitingForAccept': 'Waiting for {subject} to accept with the code.',
  'operators.proposals.acceptedWithKey': '{subject} accepted with key {key}',
  'operators.proposals.thenConfirm': 'Then an admin independent of {proposer} confirms it.',
  'operators.proposals.waitingForConfirm': 'Waiting for confirmation by an admin independent of {proposer}.',
  'operators.proposals.noSecondAdmin': 'Needs no second admin: it takes effect when accepted.',
  'operators.proposals.confirm': 'Confirm',
  'operators.proposals.confirmTitle': 'Confirm: {summary}',
  'operators.proposals.confirm.keyLabel': 'Key {subject} accepted with',
  'operators.proposals.confirm.keyCompare':
    'Ask {subject} to read out the key fingerprint their screen showed when they accepted, and confirm only if it is the same.',
  'operators.proposals.confirm.keyNone': '{subject} has not accepted the invitation yet.',
  'operators.proposals.confirm.description': 'Proposed by {proposer} on {at}. It takes effect when you confirm.',
  'operators.proposals.confirm.hint': 'An admin independent of {proposer} confirms with their own passphrase.',
  'operators.proposals.confirmed': 'Confirmed: {summary}.',
  'operators.proposals.withdraw': 'Withdraw',
  'operators.proposals.withdrawTitle': 'Withdraw: {summary}',
  'operators.proposals.withdraw.description': 'Proposed by {proposer} on {at}. Withdrawn, it never takes effect.',
  'operators.proposals.withdraw.descriptionWithCode': 'Proposed by {proposer} on {at}. Withdrawn, it never takes effect and its code stops working.',
  'operators.proposals.withdrawn': 'Withdrawn: {summary}.',

  // Inviting an operator and the one-time code.
  'operators.invite.title': 'Invite an operator',
  'operators.invite.intro': 'Nobody types a passphrase for someone else: the invited operator chooses theirs with the code you hand over.',
  'operators.invite.description':
    '{invited} is invited as {role, select, viewer {viewer} initiator {initiator} approver {approver} other {administrator}}. You get a one-time code to hand to {invited} in person; {invited} then chooses their own passphrase at this desk.',
  'operators.invite.confirm': 'Invite',
  'operators.code.invitationTitle': 'Invitation code for {operator}: shown only now',
  'operators.code.rekeyTitle': 'New-key code for {operator}: shown only now',
  'operators.code.howToUse': '{operator} types it under "I have an invitation" on this screen, with their name and a passphrase of their own.',
  'operators.code.thenConfirm': 'Then another admin confirms the key they accepted with, under "Waiting for someone".',
  'operators.code.done': 'I handed it over: hide the code',

  // Accepting an invitation.
  'operators.accept.title': 'I have an invitation',
  'operators.accept.intro': 'An admin gave you a one-time code. Type it with your name, and choose your own passphrase: nobody else ever learns it.',
  'operators.accept.formLabel': 'Accept an invitation',
  'operators.accept.name': 'Your operator name',
  'operators.accept.code': 'Invitation code',
  'operators.accept.passphrase': 'Your new passphrase',
  'operators.accept.busy': 'Making your key…',
  'operators.accept.submit': 'Accept the invitation',
  'operators.accept.made': '{name}: your new key is made and sealed with your passphrase',
  'operators.accept.inForce': '. It is in force now.',
  'operators.accept.toConfirm': '. An admin still has to confirm it.',
  'operators.accept.keyLabel': "Your new key's fingerprint",
  'operators.accept.keyNone': 'Not available yet.',
  'operators.accept.keyCompare': 'Read it out to the admin who confirms your key: they confirm only if theirs shows the same.',

  // Changing one's own passphrase.
  'operators.ownPassphrase.title': 'Change my passphrase',
  'operators.ownPassphrase.intro': 'Your key is re-sealed under the new passphrase; nothing else changes. Only you can do this, with your current passphrase.',
  'operators.ownPassphrase.current': 'Current passphrase',
  'operators.ownPassphrase.new': 'New passphrase',
  'operators.ownPassphrase.busy': 'Re-sealing…',
  'operators.ownPassphrase.done': '{name}: your passphrase is changed. Your key and its fingerprint stay the same.',

  // A new passphrase typed twice.
  'operators.newPassphrase.hint': 'Long and unique; nobody can recover it for you.',
  'operators.newPassphrase.again': '{label} again',
  'operators.newPassphrase.differ': 'The two passphrases differ.',

  // Approval groups.
  'operators.groups.title': 'Approval groups',
  'operators.groups.intro':
    'A policy tier can require approvals from groups (Settings, policy editor). Groups are part of the signed roster; a change waits for a second admin.',
  'operators.groups.empty': 'No approval groups yet.',
  'operators.groups.caption': 'Approval groups in force',
  'operators.groups.group': 'Group',
  'operators.groups.members': 'Members',
  'operators.groups.change': 'Change',
  'operators.groups.changeMembersOf': 'Change the members of {name}',
  'operators.groups.nobody': 'nobody',
  'operators.groups.pendingTitle': 'Group changes waiting for a second admin',
  'operators.groups.pendingItem': '{summary}, proposed by {proposer} {at}: confirm it under "Waiting for someone".',
  'operators.groups.formTitle': "Propose a group's members",
  'operators.groups.name': 'Group name',
  'operators.groups.nameHint': "Lower-case letters, digits and dashes. An existing group's members are replaced.",
  'operators.groups.nameProblem': 'Type a group name of lower-case letters, digits and dashes (at most 40), such as treasury-leads.',
  'operators.groups.membersLegend': 'Members (none ticked dissolves the group)',
  'operators.groups.dissolveTitle': 'Dissolve the approval group {name}',
  'operators.groups.setTitle': 'Set the members of the approval group {name}',
  'operators.groups.dissolveDescription': 'The group {name} is dissolved: a policy tier naming it can no longer be met.',
  'operators.groups.setDescription': 'The group {name} becomes exactly: {members}.',
  'operators.groups.hint': 'An admin signs group changes. With two independent admins, a second admin confirms the change before it takes effect.',
  'operators.groups.inForce': 'The group {name} is in force.',
  'operators.groups.proposed': 'Proposed: the group {name} waits for confirmation by another admin, independent of you (under "Waiting for someone").',

  // The "who is acting?" dialog and the demo operators.
  'operators.dialog.operator': 'Operator',
  'operators.dialog.passphrase': 'Passphrase',
  'operators.dialog.sayWhy': 'Say why.',
  'operators.dialog.working': 'Working…',
  'operators.demo.title': 'Demo operators',
  'operators.demo.operator':
    '<code>{name}</code> ({role, select, viewer {viewer} initiator {initiator} approver {approver} other {admin}}), passphrase <code>{passphrase}</code>',

} as const;

export const de: Translation<typeof en> = {
  'operators.cancel': 'Abbrechen',
  'operators.propose': 'Vorschlagen',
  'operators.list.and': '{first} und {second}',
  'operators.hint.adminConfirms': 'Ein Admin bestätigt mit der eigenen Passphrase.',
  'operators.hint.adminConfirmsSecond': 'Ein Admin bestätigt mit der eigenen Passphrase. Bei zwei unabhängigen Admins bestätigt auch ein zweiter.',

  'operators.role.viewer': 'Betrachter/in',
  'operators.role.initiator': 'Erfasser/in',
  'operators.role.approver': 'Freigebende/r',
  'operators.role.admin': 'Administrator/in',
  'operators.role.viewer.text': 'Sieht Salden und Verlauf.',
  'operators.role.initiator.text': 'Erstellt zudem Adressen, beantragt und sendet Auszahlungen.',
  'operators.role.approver.text': 'Gibt zudem Auszahlungen frei, lehnt sie ab und sendet sie.',
  'operators.role.admin.text': 'Verwaltet zudem Operatoren, Richtlinien und Einstellungen.',

  'operators.status.invited': 'eingeladen',
  'operators.status.active': 'aktiv',
  'operators.status.disabled': 'deaktiviert',

  'operators.proposal.kind.enrol': 'Einladung',
  'operators.proposal.kind.rekey': 'Neuer Schlüssel',
  'operators.proposal.kind.role': 'Rollenwechsel',
  'operators.proposal.kind.disable': 'Deaktivierung',
  'operators.proposal.kind.policy': 'Richtlinienänderung',
  'operators.proposal.kind.book': 'Adressbuch-Eintrag',
  'operators.proposal.kind.profileAdd': 'Neues Profil',
  'operators.proposal.kind.profileRemove': 'Profil entfernen',
  'operators.proposal.kind.unfreeze': 'Aufhebung der Sendesperre',
  'operators.proposal.kind.group': 'Änderung einer Freigabegruppe',
  'operators.proposal.kind.governance': 'Governance-Änderung',
  'operators.proposal.kind.radarClear': 'Entwarnung des Poisoning-Radars',
  'operators.proposal.kind.payees': 'Neue Zahlungsempfänger',

  'operators.screen.reading': 'Operatorenliste wird gelesen…',
  'operators.screen.noProfile': 'Kein Händlerprofil ist aktiv: Fügen Sie unter „Verbindung“ eines hinzu oder wählen Sie eines aus.',

  'operators.fourEyes.label': 'Vier-Augen-Prinzip',
  'operators.fourEyes.cannot': 'Dieser Desk kann das Vier-Augen-Prinzip nicht gewährleisten',
  'operators.fourEyes.holds': 'Vier-Augen-Prinzip gewährleistet',
  'operators.fourEyes.holdsText':
    'Dieser Desk hat zwei unabhängige Admins: Änderungen an Operatoren und Richtlinien warten auf die Bestätigung eines zweiten Admins, und bei einer Auszahlung zählen nur Freigaben von Operatoren, die vom Erfasser und voneinander unabhängig sind.',

  'operators.roster.title': 'Operatorenliste',
  'operators.roster.intro':
    'Jeder Operator hat einen eigenen Signaturschlüssel, versiegelt mit einer Passphrase, die nur er kennt. Eine Partei sind alle, deren Entscheidungen eine einzelne Person kontrollieren könnte: Ein Operator, den ein Admin allein aufgenommen hat, gehört zur Partei dieses Admins.',
  'operators.roster.name': 'Name',
  'operators.roster.role': 'Rolle',
  'operators.roster.status': 'Status',
  'operators.roster.keyFingerprint': 'Schlüssel-Fingerabdruck',
  'operators.roster.party': 'Partei',
  'operators.roster.enrolledBy': 'Aufgenommen von',
  'operators.roster.lockedUntil': 'Gesperrt bis',
  'operators.roster.actions': 'Aktionen',
  'operators.roster.founder': 'Gründer',
  'operators.roster.founding': 'Gründung',
  'operators.roster.lockedOutUntil': '<badge>gesperrt</badge> bis {until}',
  'operators.roster.wrongPassphrases': '{count, plural, one {# falsche Passphrase} other {# falsche Passphrasen}}',
  'operators.roster.changeRole': 'Rolle ändern',
  'operators.roster.changeRoleOf': 'Rolle von {name} ändern',
  'operators.roster.rekey': 'Schlüssel erneuern',
  'operators.roster.rekeyOf': 'Schlüssel von {name} erneuern',
  'operators.roster.disable': 'Deaktivieren',

  'operators.disable.title': '{name} deaktivieren',
  'operators.disable.description': '{name} kann den Desk dann weder entsperren noch etwas signieren. Frühere Entscheidungen bleiben im Prüfprotokoll.',
  'operators.disable.proposed': 'Vorgeschlagen: {name} deaktivieren. Das wartet auf die Bestätigung durch einen anderen, von Ihnen unabhängigen Admin.',
  'operators.disable.done': 'Erledigt: {name} ist deaktiviert.',

  'operators.rekey.title': '{name} einen neuen Schlüssel geben',
  'operators.rekey.description':
    'Für einen Operator, der seine Passphrase verloren hat: Sie erhalten einen Einmalcode für {name}; damit wählt {name} unter „Ich habe eine Einladung“ eine neue Passphrase. Der bisherige Schlüssel gilt nicht mehr, sobald der neue in Kraft ist.',
  'operators.rekey.confirm': 'Code erstellen',

  'operators.roleEditor.label': 'Rolle von {name}',
  'operators.roleEditor.newRole': 'Neue Rolle für {name}',
  'operators.roleEditor.title': 'Rolle von {name} ändern',
  'operators.roleEditor.description':
    '{name} wird {role, select, viewer {Betrachter/in} initiator {Erfasser/in} approver {Freigebende/r} other {Administrator/in}}: {text}',
  'operators.roleEditor.proposed':
    'Vorgeschlagen: {name} wird {role, select, viewer {Betrachter/in} initiator {Erfasser/in} approver {Freigebende/r} other {Admin}}. Das wartet auf die Bestätigung durch einen anderen, von Ihnen unabhängigen Admin.',
  'operators.roleEditor.done': 'Erledigt: {name} ist jetzt {role, select, viewer {Betrachter/in} initiator {Erfasser/in} approver {Freigebende/r} other {Admin}}.',

  'operators.proposals.title': 'Ausstehend',
  'operators.proposals.intro':
    'Einladungen warten, bis der eingeladene Operator seine Passphrase wählt; bei zwei unabhängigen Admins wartet zudem jede Änderung an Operatoren und Richtlinien auf die Bestätigung eines zweiten Admins.',
  'operators.proposals.empty': 'Nichts steht aus.',
  'operators.proposals.proposedBy': 'vorgeschlagen von {proposer} am {at}',
  'operators.proposals.waitingForAccept': 'Wartet darauf, dass {subject} mit dem Code annimmt.',
  'operators.proposals.acceptedWithKey': '{subject} hat mit dem Schlüssel {key} angenommen',
  'operators.proposals.thenConfirm': 'Danach bestätigt ein von {proposer} unabhängiger Admin.',
  'operators.proposals.waitingForConfirm': 'Wartet auf die Bestätigung durch einen von {proposer} unabhängigen Admin.',
  'operators.proposals.noSecondAdmin': 'Kein zweiter Admin nötig: wird mit der Annahme wirksam.',
  'operators.proposals.confirm': 'Bestätigen',
  'operators.proposals.confirmTitle': 'Bestätigen: {summary}',
  'operators.proposals.confirm.keyLabel': 'Schlüssel, mit dem {subject} angenommen hat',
  'operators.proposals.confirm.keyCompare':
    'Bitten Sie {subject}, den Schlüssel-Fingerabdruck vorzulesen, den der Bildschirm beim Annehmen zeigte, und bestätigen Sie nur, wenn er übereinstimmt.',
  'operators.proposals.confirm.keyNone': '{subject} hat die Einladung noch nicht angenommen.',
  'operators.proposals.confirm.description': 'Vorgeschlagen von {proposer} am {at}. Wird wirksam, sobald Sie bestätigen.',
  'operators.proposals.confirm.hint': 'Ein von {proposer} unabhängiger Admin bestätigt mit der eigenen Passphrase.',
  'operators.proposals.confirmed': 'Bestätigt: {summary}.',
  'operators.proposals.withdraw': 'Zurückziehen',
  'operators.proposals.withdrawTitle': 'Zurückziehen: {summary}',
  'operators.proposals.withdraw.description': 'Vorgeschlagen von {proposer} am {at}. Zurückgezogen wird es nie wirksam.',
  'operators.proposals.withdraw.descriptionWithCode': 'Vorgeschlagen von {proposer} am {at}. Zurückgezogen wird es nie wirksam, und sein Code gilt nicht mehr.',
  'operators.proposals.withdrawn': 'Zurückgezogen: {summary}.',

  'operators.invite.title': 'Operator einladen',
  'operators.invite.intro': 'Niemand gibt eine Passphrase für andere ein: Der eingeladene Operator wählt seine eigene mit dem Code, den Sie übergeben.',
  'operators.invite.description':
    '{invited} wird als {role, select, viewer {Betrachter/in} initiator {Erfasser/in} approver {Freigebende/r} other {Administrator/in}} eingeladen. Sie erhalten einen Einmalcode, den Sie {invited} persönlich übergeben; danach wählt {invited} an diesem Desk eine eigene Passphrase.',
  'operators.invite.confirm': 'Einladen',
  'operators.code.invitationTitle': 'Einladungscode für {operator}: nur jetzt sichtbar',
  'operators.code.rekeyTitle': 'Code für den neuen Schlüssel von {operator}: nur jetzt sichtbar',
  'operators.code.howToUse': '{operator} gibt ihn auf diesem Bildschirm unter „Ich habe eine Einladung“ ein, mit dem eigenen Namen und einer eigenen Passphrase.',
  'operators.code.thenConfirm': 'Danach bestätigt ein anderer Admin unter „Ausstehend“ den Schlüssel, mit dem angenommen wurde.',
  'operators.code.done': 'Übergeben: Code ausblenden',

  'operators.accept.title': 'Ich habe eine Einladung',
  'operators.accept.intro': 'Ein Admin hat Ihnen einen Einmalcode gegeben. Geben Sie ihn mit Ihrem Namen ein und wählen Sie eine eigene Passphrase: Niemand sonst erfährt sie.',
  'operators.accept.formLabel': 'Einladung annehmen',
  'operators.accept.name': 'Ihr Operatorname',
  'operators.accept.code': 'Einladungscode',
  'operators.accept.passphrase': 'Ihre neue Passphrase',
  'operators.accept.busy': 'Ihr Schlüssel wird erstellt…',
  'operators.accept.submit': 'Einladung annehmen',
  'operators.accept.made': '{name}: Ihr neuer Schlüssel ist erstellt und mit Ihrer Passphrase versiegelt',
  'operators.accept.inForce': '. Er gilt ab sofort.',
  'operators.accept.toConfirm': '. Ein Admin muss ihn noch bestätigen.',
  'operators.accept.keyLabel': 'Fingerabdruck Ihres neuen Schlüssels',
  'operators.accept.keyNone': 'Noch nicht verfügbar.',
  'operators.accept.keyCompare': 'Lesen Sie ihn dem Admin vor, der Ihren Schlüssel bestätigt: Er bestätigt nur, wenn bei ihm derselbe erscheint.',

  'operators.ownPassphrase.title': 'Meine Passphrase ändern',
  'operators.ownPassphrase.intro':
    'Ihr Schlüssel wird mit der neuen Passphrase neu versiegelt; sonst ändert sich nichts. Nur Sie selbst können das, mit Ihrer aktuellen Passphrase.',
  'operators.ownPassphrase.current': 'Aktuelle Passphrase',
  'operators.ownPassphrase.new': 'Neue Passphrase',
  'operators.ownPassphrase.busy': 'Wird neu versiegelt…',
  'operators.ownPassphrase.done': '{name}: Ihre Passphrase ist geändert. Ihr Schlüssel und sein Fingerabdruck bleiben gleich.',

  'operators.newPassphrase.hint': 'Lang und einmalig; niemand kann sie für Sie wiederherstellen.',
  'operators.newPassphrase.again': '{label} wiederholen',
  'operators.newPassphrase.differ': 'Die beiden Passphrasen stimmen nicht überein.',

  'operators.groups.title': 'Freigabegruppen',
  'operators.groups.intro':
    'Eine Richtlinienstufe kann Freigaben aus Gruppen verlangen (Einstellungen, Richtlinien-Editor). Gruppen gehören zur signierten Operatorenliste; eine Änderung wartet auf einen zweiten Admin.',
  'operators.groups.empty': 'Noch keine Freigabegruppen.',
  'operators.groups.caption': 'Geltende Freigabegruppen',
  'operators.groups.group': 'Gruppe',
  'operators.groups.members': 'Mitglieder',
  'operators.groups.change': 'Ändern',
  'operators.groups.changeMembersOf': 'Mitglieder von {name} ändern',
  'operators.groups.nobody': 'niemand',
  'operators.groups.pendingTitle': 'Gruppenänderungen, die auf einen zweiten Admin warten',
  'operators.groups.pendingItem': '{summary}, vorgeschlagen von {proposer} am {at}: Bestätigen Sie dies unter „Ausstehend“.',
  'operators.groups.formTitle': 'Mitglieder einer Gruppe vorschlagen',
  'operators.groups.name': 'Gruppenname',
  'operators.groups.nameHint': 'Kleinbuchstaben, Ziffern und Bindestriche. Die Mitglieder einer bestehenden Gruppe werden ersetzt.',
  'operators.groups.nameProblem': 'Geben Sie einen Gruppennamen aus Kleinbuchstaben, Ziffern und Bindestrichen ein (höchstens 40), etwa treasury-leads.',
  'operators.groups.membersLegend': 'Mitglieder (ohne Auswahl wird die Gruppe aufgelöst)',
  'operators.groups.dissolveTitle': 'Freigabegruppe {name} auflösen',
  'operators.groups.setTitle': 'Mitglieder der Freigabegruppe {name} festlegen',
  'operators.groups.dissolveDescription': 'Die Gruppe {name} wird aufgelöst: Eine Richtlinienstufe, die sie nennt, kann nicht mehr erfüllt werden.',
  'operators.groups.setDescription': 'Die Gruppe {name} besteht dann genau aus: {members}.',
  'operators.groups.hint': 'Ein Admin signiert Gruppenänderungen. Bei zwei unabhängigen Admins bestätigt ein zweiter Admin die Änderung, bevor sie wirksam wird.',
  'operators.groups.inForce': 'Die Gruppe {name} ist in Kraft.',
  'operators.groups.proposed': 'Vorgeschlagen: Die Gruppe {name} wartet auf die Bestätigung durch einen anderen, von Ihnen unabhängigen Admin (unter „Ausstehend“).',

  'operators.dialog.operator': 'Operator',
  'operators.dialog.passphrase': 'Passphrase',
  'operators.dialog.sayWhy': 'Bitte nennen Sie einen Grund.',
  'operators.dialog.working': 'Wird ausgeführt…',
  'operators.demo.title': 'Demo-Operatoren',
  'operators.demo.operator':
    '<code>{name}</code> ({role, select, viewer {Betrachter/in} initiator {Erfasser/in} approver {Freigebende/r} other {Admin}}), Passphrase <code>{passphrase}</code>',
};
