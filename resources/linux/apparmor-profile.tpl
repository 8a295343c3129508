# AppArmor profile the .deb and .rpm install as /etc/apparmor.d/${executable} (Ubuntu 24.04 and later restrict the
# unprivileged user namespaces Chromium's sandbox needs). It confines nothing (flags=(unconfined)); it names the app and
# allows it user namespaces, so the app runs WITH its sandbox. electron-builder fills ${executable} and
# ${sanitizedProductName}; test/unit/main/installers.test.ts renders it and checks it with apparmor_parser.
abi <abi/4.0>,
include <tunables/global>

profile "${executable}" "/opt/${sanitizedProductName}/${executable}" flags=(unconfined) {
  userns,

  # Site-specific additions and overrides. See local/README for details.
  include if exists <local/${executable}>
}
