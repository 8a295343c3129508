// Test harness only (never shipped): implements window.treasury (the contract's TreasuryBridge) in a plain browser
// over a WebSocket to the harness server, which dispatches each call to the real engine and forwards its events.
/* global window, WebSocket */
(function installHarnessBridge() {
  'use strict';
  const url = `ws://${window.location.host}/harness-ws`;
  const pending = new Map();
  const listeners = new Set();
  const outbox = [];
  let nextId = 1;
  let closed = false;

  function failure(message) {
    return { ok: false, error: { code: 'internal', message } };
  }

  const socket = new WebSocket(url);
  socket.addEventListener('open', () => {
    for (const text of outbox.splice(0)) socket.send(text);
  });
  socket.addEventListener('message', (event) => {
    let message;
    try {
      message = JSON.parse(String(event.data));
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object') return;
    if (typeof message.id === 'number') {
      const resolve = pending.get(message.id);
      if (resolve !== undefined) {
        pending.delete(message.id);
        resolve(message.result);
      }
      return;
    }
    if (message.event !== null && typeof message.event === 'object' && typeof message.event.type === 'string') {
      for (const listener of [...listeners]) {
        try {
          listener(message.event);
        } catch (error) {
          console.error('A treasury event listener failed:', error);
        }
      }
    }
  });
  socket.addEventListener('close', () => {
    closed = true;
    for (const resolve of pending.values()) resolve(failure('The test harness connection closed; reload the page.'));
    pending.clear();
  });

  function call(method, request) {
    return new Promise((resolve) => {
      if (closed) {
        resolve(failure('The test harness connection is closed; reload the page.'));
        return;
      }
      const id = nextId;
      nextId += 1;
      pending.set(id, resolve);
      const text = JSON.stringify({ id, method, payload: request });
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
      else outbox.push(text);
    });
  }

  function onEvent(listener) {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a listener function.');
    listeners.add(listener);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      listeners.delete(listener);
    };
  }

  Object.defineProperty(window, 'treasury', { value: Object.freeze({ call, onEvent }), enumerable: true, configurable: false, writable: false });
})();
