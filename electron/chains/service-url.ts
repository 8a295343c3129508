// The rule for the payment service's base URL, one function shared by the contract's credentials schema, the
// credentials-file import and the protocol's HTTP client (the one pure layer all three may import): https, or plain
// http only to this computer itself (127.0.0.0/8, ::1, localhost) for a local sandbox, and never a user name or
// password in it. Plain http to any other host would let anyone on the path read and alter the traffic's unsigned
// parts (a failure's message, PROTOCOL §3.3) and watch which calls are made.

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** True for a URL host name (as `new URL()` gives it, IPv6 in brackets) that names this computer. */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
  const octets = IPV4.exec(host);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255) && Number(octets[1]) === 127;
}

/**
 * Why `text` cannot be the service's base URL (a phrase to put after "the base URL"), or null when it can. The phrase
 * never repeats the URL (it may carry a password).
 */
export function serviceBaseUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'is not a valid URL; enter it like https://pay.example.com';
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHostname(url.hostname)) {
      return 'must use https:// (plain http:// is accepted only for this computer itself, such as a local sandbox at http://127.0.0.1)';
    }
  } else if (url.protocol !== 'https:') {
    return `must start with https://, not ${url.protocol}//`;
  }
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  return null;
}
