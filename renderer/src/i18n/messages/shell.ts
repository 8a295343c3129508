// Messages of the desk's shell area, English and German (ICU message syntax: {name}, {count, plural, one {…} other {…}}):
// the frame (top bar, navigation, screen titles), its banners and notices, the error boundary, and what a contract error
// means (ErrorNotice: a headline per error code, the next step for some).
import type { Translation } from './translation';

export const en = {
  'shell.productName': 'Treasury Desk',
  'shell.splash.opening': 'Opening the desk…',

  // The frame.
  'shell.skipToContent': 'Skip to content',
  'shell.topbar.noProfile': 'No profile',
  'shell.topbar.demoBadge': 'demo',
  'shell.topbar.connection.unknown': 'Connection unknown',
  'shell.topbar.connection.online': 'Online',
  'shell.topbar.connection.offline': 'Offline',
  'shell.topbar.noOperator': 'No operator signed in',
  'shell.topbar.operator': 'Operator: <b>{name}</b>',
  'shell.topbar.lock': 'Lock',
  'shell.nav.label': 'Screens',
  'shell.nav.waitingForApproval': '{count} waiting for approval',

  // Screen titles (the heading) and short names (the side navigation), as electron/contract/screens.ts names them.
  'shell.screen.dashboard': 'Dashboard',
  'shell.screen.deposits': 'Deposits',
  'shell.screen.addresses': 'Deposit addresses',
  'shell.screen.addresses.short': 'Addresses',
  'shell.screen.withdrawals': 'Withdrawals',
  'shell.screen.addressBook': 'Address book',
  'shell.screen.reconciliation': 'Reconciliation',
  'shell.screen.tools': 'Tools',
  'shell.screen.audit': 'Audit log',
  'shell.screen.operators': 'Operators',
  'shell.screen.settings': 'Settings',
  'shell.screen.profiles': 'Profiles and connection',
  'shell.screen.profiles.short': 'Connection',

  // Banners.
  'shell.demo.label': 'Demo profile',
  'shell.demo.text':
    '<b>Demo profile.</b> You are exploring a local sandbox with made-up merchants, balances and transfers. Nothing here moves real funds; add your merchant profile under Profiles and connection to go live.',
  'shell.offline.headline': '<b>Offline</b>. {reason}',
  'shell.offline.headlineSince': '<b>Offline</b> since {time} ({ago}). {reason}',
  'shell.offline.reason.unknown': 'The service cannot be reached.',
  'shell.offline.reason.network': 'The payment service cannot be reached from this workstation.',
  'shell.offline.reason.notWhitelisted':
    "The service answered “Oops”: this workstation's IP address is not on the merchant account's whitelist. Ask the platform to add it.",
  'shell.offline.reason.clockDrift': "This computer's clock differs from the service's by more than the ±5 minute window, so every signed request is refused.",
  'shell.offline.reason.credentials': 'The service refused the merchant credentials (token, signature or keys).',
  'shell.offline.reason.service': 'The service refused requests.',
  'shell.offline.cachedStayBrowsable': 'Cached balances, deposits and withdrawals stay browsable; the desk reconnects by itself.',
  'shell.offline.lastContact': 'Last contact with the service {ago}.',
  'shell.sync.resource.currencies': 'Currencies',
  'shell.sync.resource.balances': 'Balances',
  'shell.sync.resource.deposits': 'Deposits',
  'shell.sync.resource.withdrawals': 'Withdrawals',
  'shell.sync.resourceInSentence.currencies': 'currencies',
  'shell.sync.resourceInSentence.balances': 'balances',
  'shell.sync.resourceInSentence.deposits': 'deposits',
  'shell.sync.resourceInSentence.withdrawals': 'withdrawals',
  'shell.serviceTrouble.headline':
    '<b>The service is reachable but failing</b> for {resources}. The other records are current; cached ones stay browsable, and the desk tries again at the next sync.',
  'shell.serviceTrouble.resource': '{resource}: {error} (failed at {failedAt}; {lastSuccess})',
  'shell.serviceTrouble.neverSynced': 'never synced yet',
  'shell.serviceTrouble.lastSuccess': 'last success {time}, {ago}',
  'shell.sync.progressLabel': 'Syncing {resource}',
  'shell.sync.progress': 'Syncing {detail}',
  'shell.sync.cancel': 'Cancel',
  'shell.notFounded.label': 'Desk not founded',
  'shell.notFounded.text':
    '<b>This desk profile is not founded yet.</b> Nobody can request, approve or send anything until its first one or two admins found it, each with their own passphrase.',
  'shell.notFounded.found': 'Found the desk',
  'shell.frozen.headline': '<b>Sending is frozen</b> by {by} since {since}: {reason}',
  'shell.frozen.goesOn': 'Requests and approvals go on; nothing is sent until the freeze is lifted.',
  'shell.frozen.howToLift': 'An admin proposes lifting it (Settings, Emergency freeze) and another admin confirms.',
  'shell.frozen.liftProposed': '{proposer} proposed lifting it: another admin confirms it on the Operators screen.',

  // Notices from the desktop.
  'shell.link.notOpened': 'Link not opened.',
  // Shown only when the window does not speak English, before the link parser's English reason.
  'shell.link.problem.malformed': 'This is not a valid Treasury Desk link.',
  'shell.link.problem.unknownKind': 'This desk does not know this kind of link.',
  'shell.link.problem.badId': 'The id in this link is not valid.',
  'shell.link.empty': '(empty)',
  'shell.link.dismiss': 'Dismiss',
  'shell.update.ready': '<b>Version {version} is ready.</b> Restart Treasury Desk to install it (a withdrawal being sent finishes first).',
  'shell.update.whatChanges': 'What changes',
  'shell.update.restartNow': 'Restart now',
  'shell.update.later': 'Later',

  // The error boundary.
  'shell.failure.title': 'Something went wrong in this window',
  'shell.failure.couldNotShow': 'Treasury Desk could not show this screen: {failure}',
  'shell.failure.whatToDo':
    'Everything the desk had saved is kept. Reload the window to carry on. If this happens again, export diagnostics and send the file to your support contact (the details are in {logFile} in the Treasury Desk data folder).',
  'shell.failure.reload': 'Reload',
  'shell.failure.exportDiagnostics': 'Export diagnostics…',
  'shell.failure.diagnosticsNotSaved': 'Diagnostics could not be saved: {message}',
  'shell.failure.diagnosticsSaved': 'Saved diagnostics to {fileName}: send that file to your support contact.',

  // Errors the window makes itself (api.ts).
  'shell.api.notConnected': 'This window is not connected to the treasury engine. Close Treasury Desk and start it again.',
  'shell.api.unreachable': '{method} could not reach the treasury engine. Try again; restart Treasury Desk if this repeats.',

  // A contract error (ErrorNotice). The headline says what kind of problem it is, and what to do in general where no
  // next step says it: a window in another language than the engine's English shows it above the engine's message. An
  // English window shows the engine's message itself as its headline, so these English headlines are the source text.
  'shell.error.serviceSaid': 'The service said: {reason}',
  'shell.error.invalidInput.headline': 'The input was refused. Correct what the message names and try again.',
  'shell.error.notFound.headline': 'Not found. Check the name or number; the record may no longer exist.',
  'shell.error.forbidden.headline': 'Your role does not allow this action.',
  'shell.error.wrongPassphrase.headline': 'Wrong operator name or passphrase.',
  'shell.error.conflict.headline': 'Not possible in the current state. Check the current state (someone may have acted already), then decide again.',
  'shell.error.locked.headline': 'The desk is locked.',
  'shell.error.lockedOut.headline': 'Too many wrong passphrases: this operator has to wait.',
  'shell.error.unverified.headline': 'Refused: the signed statements do not support this decision.',
  'shell.error.held.headline': 'Held by the policy in force.',
  'shell.error.noProfile.headline': 'No merchant profile is active.',
  'shell.error.keychainUnavailable.headline': 'The system keychain is not available.',
  'shell.error.credentials.headline':
    'The service refused the merchant credentials. Check the profile’s credentials under Profiles and connection (the selfcheck tells which one).',
  'shell.error.notWhitelisted.headline': 'This workstation is not on the service’s whitelist.',
  'shell.error.clockDrift.headline': 'This computer’s clock is wrong.',
  'shell.error.offline.headline': 'The service cannot be reached.',
  'shell.error.service.headline': 'The service refused the request. Correct what its reason names, or try again later.',
  'shell.error.verification.headline':
    'An answer of the service failed verification and was discarded. Try again; if it repeats, tell your security officer.',
  'shell.error.ambiguous.headline': 'The outcome is not known yet.',
  'shell.error.internal.headline':
    'An unexpected error. Try again; if it happens again, export diagnostics (Settings) and send the file to your support contact.',
  'shell.error.locked.nextStep': 'Unlock the desk with your operator name and passphrase, then try again.',
  'shell.error.notWhitelisted.nextStep': "Ask the platform to whitelist this workstation's public IP address for your merchant account.",
  'shell.error.clockDrift.nextStep': "Set this computer's clock to synchronise automatically (NTP); requests are refused beyond ±5 minutes.",
  'shell.error.offline.nextStep':
    'Check the network connection (the message says what could not be reached), then try again; the cached history stays available.',
  'shell.error.noProfile.nextStep': 'Add or select a merchant profile under Profiles and connection.',
  'shell.error.keychainUnavailable.nextStep': "Unlock the system keychain (your desktop session's keyring), then try again.",
  'shell.error.wrongPassphrase.nextStep': 'Check the operator name and passphrase; both are case-sensitive.',
  'shell.error.forbidden.nextStep': 'Ask an operator whose role allows this action.',
  'shell.error.ambiguous.nextStep': 'Do not create the withdrawal again: the desk is reconciling it with the service.',
  'shell.error.lockedOut.nextStep':
    'Each further wrong passphrase makes the wait longer. If the passphrase is lost, an admin can give the operator a new key (Operators → Re-key).',
  'shell.error.unverified.nextStep':
    'Nothing was sent or changed. Keep this workstation as it is and tell your security officer: the signed statements do not support this decision.',
  'shell.error.held.nextStep':
    'Nothing was sent: a rule of the policy in force now holds this withdrawal. Do what the message says would release it, then send it again.',
} as const;

export const de: Translation<typeof en> = {
  'shell.productName': 'Treasury Desk',
  'shell.splash.opening': 'Der Desk wird geöffnet…',

  'shell.skipToContent': 'Zum Inhalt springen',
  'shell.topbar.noProfile': 'Kein Profil',
  'shell.topbar.demoBadge': 'Demo',
  'shell.topbar.connection.unknown': 'Verbindung unbekannt',
  'shell.topbar.connection.online': 'Online',
  'shell.topbar.connection.offline': 'Offline',
  'shell.topbar.noOperator': 'Kein Operator angemeldet',
  'shell.topbar.operator': 'Operator: <b>{name}</b>',
  'shell.topbar.lock': 'Sperren',
  'shell.nav.label': 'Ansichten',
  'shell.nav.waitingForApproval': '{count, plural, one {# wartet auf Freigabe} other {# warten auf Freigabe}}',

  'shell.screen.dashboard': 'Übersicht',
  'shell.screen.deposits': 'Einzahlungen',
  'shell.screen.addresses': 'Einzahlungsadressen',
  'shell.screen.addresses.short': 'Adressen',
  'shell.screen.withdrawals': 'Auszahlungen',
  'shell.screen.addressBook': 'Adressbuch',
  'shell.screen.reconciliation': 'Abstimmung',
  'shell.screen.tools': 'Werkzeuge',
  'shell.screen.audit': 'Prüfprotokoll',
  'shell.screen.operators': 'Operatoren',
  'shell.screen.settings': 'Einstellungen',
  'shell.screen.profiles': 'Profile und Verbindung',
  'shell.screen.profiles.short': 'Verbindung',

  'shell.demo.label': 'Demo-Profil',
  'shell.demo.text':
    '<b>Demo-Profil.</b> Sie erkunden eine lokale Sandbox mit erfundenen Händlern, Guthaben und Überweisungen. Hier werden keine echten Gelder bewegt; für den Echtbetrieb fügen Sie Ihr Händlerprofil unter „Profile und Verbindung“ hinzu.',
  'shell.offline.headline': '<b>Offline</b>. {reason}',
  'shell.offline.headlineSince': '<b>Offline</b> seit {time} ({ago}). {reason}',
  'shell.offline.reason.unknown': 'Der Dienst ist nicht erreichbar.',
  'shell.offline.reason.network': 'Der Zahlungsdienst ist von diesem Arbeitsplatz aus nicht erreichbar.',
  'shell.offline.reason.notWhitelisted':
    'Der Dienst antwortete „Oops“: Die IP-Adresse dieses Arbeitsplatzes steht nicht auf der Whitelist des Händlerkontos. Bitten Sie die Plattform, sie hinzuzufügen.',
  'shell.offline.reason.clockDrift':
    'Die Uhr dieses Computers weicht um mehr als die zulässigen ±5 Minuten von der des Dienstes ab; jede signierte Anfrage wird daher abgelehnt.',
  'shell.offline.reason.credentials': 'Der Dienst hat die Händler-Zugangsdaten abgelehnt (Token, Signatur oder Schlüssel).',
  'shell.offline.reason.service': 'Der Dienst hat Anfragen abgelehnt.',
  'shell.offline.cachedStayBrowsable': 'Zwischengespeicherte Guthaben, Einzahlungen und Auszahlungen bleiben einsehbar; der Desk verbindet sich von selbst wieder.',
  'shell.offline.lastContact': 'Letzter Kontakt mit dem Dienst: {ago}.',
  'shell.sync.resource.currencies': 'Währungen',
  'shell.sync.resource.balances': 'Guthaben',
  'shell.sync.resource.deposits': 'Einzahlungen',
  'shell.sync.resource.withdrawals': 'Auszahlungen',
  'shell.sync.resourceInSentence.currencies': 'Währungen',
  'shell.sync.resourceInSentence.balances': 'Guthaben',
  'shell.sync.resourceInSentence.deposits': 'Einzahlungen',
  'shell.sync.resourceInSentence.withdrawals': 'Auszahlungen',
  'shell.serviceTrouble.headline':
    '<b>Der Dienst ist erreichbar, meldet aber Fehler</b> für {resources}. Die übrigen Daten sind aktuell; zwischengespeicherte bleiben einsehbar, und der Desk versucht es bei der nächsten Synchronisierung erneut.',
  'shell.serviceTrouble.resource': '{resource}: {error} (fehlgeschlagen um {failedAt}; {lastSuccess})',
  'shell.serviceTrouble.neverSynced': 'noch nie synchronisiert',
  'shell.serviceTrouble.lastSuccess': 'zuletzt erfolgreich {time}, {ago}',
  'shell.sync.progressLabel': 'Synchronisierung: {resource}',
  'shell.sync.progress': 'Synchronisierung: {detail}',
  'shell.sync.cancel': 'Abbrechen',
  'shell.notFounded.label': 'Desk nicht gegründet',
  'shell.notFounded.text':
    '<b>Dieses Desk-Profil ist noch nicht gegründet.</b> Niemand kann etwas beantragen, freigeben oder senden, bis seine ersten ein oder zwei Admins es gründen, jeder mit der eigenen Passphrase.',
  'shell.notFounded.found': 'Desk gründen',
  'shell.frozen.headline': '<b>Das Senden ist gesperrt</b> (von {by}, seit {since}): {reason}',
  'shell.frozen.goesOn': 'Anträge und Freigaben gehen weiter; gesendet wird erst, wenn die Sperre aufgehoben ist.',
  'shell.frozen.howToLift': 'Ein Admin schlägt die Aufhebung vor (Einstellungen, Notfallsperre), ein anderer Admin bestätigt sie.',
  'shell.frozen.liftProposed': '{proposer} hat die Aufhebung vorgeschlagen: Ein anderer Admin bestätigt sie in der Ansicht „Operatoren“.',

  'shell.link.notOpened': 'Link nicht geöffnet.',
  'shell.link.problem.malformed': 'Dies ist kein gültiger Treasury-Desk-Link.',
  'shell.link.problem.unknownKind': 'Diese Art von Link kennt der Desk nicht.',
  'shell.link.problem.badId': 'Die Kennung in diesem Link ist ungültig.',
  'shell.link.empty': '(leer)',
  'shell.link.dismiss': 'Schließen',
  'shell.update.ready':
    '<b>Version {version} ist bereit.</b> Starten Sie Treasury Desk neu, um sie zu installieren (eine Auszahlung, die gerade gesendet wird, wird zuerst abgeschlossen).',
  'shell.update.whatChanges': 'Was sich ändert',
  'shell.update.restartNow': 'Jetzt neu starten',
  'shell.update.later': 'Später',

  'shell.failure.title': 'In diesem Fenster ist ein Fehler aufgetreten',
  'shell.failure.couldNotShow': 'Treasury Desk konnte diese Ansicht nicht anzeigen: {failure}',
  'shell.failure.whatToDo':
    'Alles, was der Desk gespeichert hatte, bleibt erhalten. Laden Sie das Fenster neu, um weiterzuarbeiten. Tritt das erneut auf, exportieren Sie die Diagnose und senden Sie die Datei an Ihren Support-Kontakt (die Details stehen in {logFile} im Datenordner von Treasury Desk).',
  'shell.failure.reload': 'Neu laden',
  'shell.failure.exportDiagnostics': 'Diagnose exportieren…',
  'shell.failure.diagnosticsNotSaved': 'Die Diagnose konnte nicht gespeichert werden: {message}',
  'shell.failure.diagnosticsSaved': 'Diagnose gespeichert in {fileName}: Senden Sie diese Datei an Ihren Support-Kontakt.',

  'shell.api.notConnected': 'Dieses Fenster ist nicht mit der Treasury-Engine verbunden. Schließen Sie Treasury Desk und starten Sie es neu.',
  'shell.api.unreachable':
    '{method} hat die Treasury-Engine nicht erreicht. Versuchen Sie es erneut; starten Sie Treasury Desk neu, wenn das wieder vorkommt.',

  'shell.error.serviceSaid': 'Der Dienst meldete: {reason}',
  'shell.error.invalidInput.headline': 'Die Eingabe wurde abgelehnt. Korrigieren Sie, was die Meldung nennt, und versuchen Sie es erneut.',
  'shell.error.notFound.headline': 'Nicht gefunden. Prüfen Sie Name oder Nummer; der Eintrag besteht womöglich nicht mehr.',
  'shell.error.forbidden.headline': 'Ihre Rolle erlaubt diese Aktion nicht.',
  'shell.error.wrongPassphrase.headline': 'Operatorname oder Passphrase ist falsch.',
  'shell.error.conflict.headline':
    'Im aktuellen Zustand nicht möglich. Prüfen Sie den aktuellen Stand (womöglich hat schon jemand gehandelt) und entscheiden Sie dann neu.',
  'shell.error.locked.headline': 'Der Desk ist gesperrt.',
  'shell.error.lockedOut.headline': 'Zu viele falsche Passphrasen: Dieser Operator muss warten.',
  'shell.error.unverified.headline': 'Abgelehnt: Die signierten Erklärungen stützen diese Entscheidung nicht.',
  'shell.error.held.headline': 'Von der geltenden Richtlinie zurückgehalten.',
  'shell.error.noProfile.headline': 'Kein Händlerprofil aktiv.',
  'shell.error.keychainUnavailable.headline': 'Der Schlüsselbund des Systems ist nicht verfügbar.',
  'shell.error.credentials.headline':
    'Der Dienst hat die Händler-Zugangsdaten abgelehnt. Prüfen Sie die Zugangsdaten des Profils unter „Profile und Verbindung“ (der Selbsttest zeigt, welche).',
  'shell.error.notWhitelisted.headline': 'Dieser Arbeitsplatz steht nicht auf der Whitelist des Dienstes.',
  'shell.error.clockDrift.headline': 'Die Uhr dieses Computers geht falsch.',
  'shell.error.offline.headline': 'Der Dienst ist nicht erreichbar.',
  'shell.error.service.headline': 'Der Dienst hat die Anfrage abgelehnt. Beheben Sie, was seine Begründung nennt, oder versuchen Sie es später erneut.',
  'shell.error.verification.headline':
    'Eine Antwort des Dienstes hat die Prüfung nicht bestanden und wurde verworfen. Versuchen Sie es erneut; wiederholt es sich, informieren Sie Ihren Sicherheitsbeauftragten.',
  'shell.error.ambiguous.headline': 'Das Ergebnis ist noch nicht bekannt.',
  'shell.error.internal.headline':
    'Ein unerwarteter Fehler. Versuchen Sie es erneut; tritt er wieder auf, exportieren Sie die Diagnose (Einstellungen) und senden Sie die Datei an Ihren Support-Kontakt.',
  'shell.error.locked.nextStep': 'Entsperren Sie den Desk mit Ihrem Operatornamen und Ihrer Passphrase und versuchen Sie es dann erneut.',
  'shell.error.notWhitelisted.nextStep': 'Bitten Sie die Plattform, die öffentliche IP-Adresse dieses Arbeitsplatzes für Ihr Händlerkonto freizuschalten.',
  'shell.error.clockDrift.nextStep':
    'Stellen Sie die Uhr dieses Computers auf automatische Synchronisierung (NTP); Anfragen mit mehr als ±5 Minuten Abweichung werden abgelehnt.',
  'shell.error.offline.nextStep':
    'Prüfen Sie die Netzwerkverbindung (die Meldung nennt, was nicht erreichbar war) und versuchen Sie es dann erneut; die zwischengespeicherte Historie bleibt verfügbar.',
  'shell.error.noProfile.nextStep': 'Fügen Sie unter „Profile und Verbindung“ ein Händlerprofil hinzu oder wählen Sie eines aus.',
  'shell.error.keychainUnavailable.nextStep': 'Entsperren Sie den Schlüsselbund des Systems (den Ihrer Desktop-Sitzung) und versuchen Sie es dann erneut.',
  'shell.error.wrongPassphrase.nextStep': 'Prüfen Sie Operatorname und Passphrase; bei beiden zählt die Groß- und Kleinschreibung.',
  'shell.error.forbidden.nextStep': 'Bitten Sie einen Operator, dessen Rolle diese Aktion erlaubt.',
  'shell.error.ambiguous.nextStep': 'Legen Sie die Auszahlung nicht noch einmal an: Der Desk gleicht sie gerade mit dem Dienst ab.',
  'shell.error.lockedOut.nextStep':
    'Jede weitere falsche Passphrase verlängert die Wartezeit. Ist die Passphrase verloren, kann ein Admin dem Operator einen neuen Schlüssel geben (Operatoren → Schlüssel erneuern).',
  'shell.error.unverified.nextStep':
    'Nichts wurde gesendet oder geändert. Lassen Sie diesen Arbeitsplatz unverändert und informieren Sie Ihren Sicherheitsbeauftragten: Die signierten Erklärungen stützen diese Entscheidung nicht.',
  'shell.error.held.nextStep':
    'Nichts wurde gesendet: Eine Regel der jetzt geltenden Richtlinie hält diese Auszahlung zurück. Tun Sie, was die Meldung zur Freigabe nennt, und senden Sie sie dann erneut.',
};
