// Provably fair results (C-4, C-7), derived again in the browser: the same derivation as domain/fairness.py.
// SHA-256 and HMAC are written out here (no crypto.subtle: a page served over plain HTTP on a LAN has none).
"use strict";
(function (global) {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

  function sha256(bytes) {
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const length = bytes.length;
    const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
    view.setUint32(padded.length - 4, (length << 3) >>> 0);
    const w = new Uint32Array(64);
    const rotr = (x, n) => (x >>> n) | (x << (32 - n));
    for (let off = 0; off < padded.length; off += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    const out = new Uint8Array(32);
    const ov = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) ov.setUint32(i * 4, h[i]);
    return out;
  }

  const utf8 = (text) => new TextEncoder().encode(text);
  const concat = (a, b) => { const o = new Uint8Array(a.length + b.length); o.set(a); o.set(b, a.length); return o; };

  function hmac(key, message) {
    if (key.length > 64) key = sha256(key);
    const block = new Uint8Array(64);
    block.set(key);
    const inner = block.map((x) => x ^ 0x36), outer = block.map((x) => x ^ 0x5c);
    return sha256(concat(outer, sha256(concat(inner, message))));
  }

  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  // Python's json.dumps(..., separators=(",", ":")) with ensure_ascii: non-ASCII as \uXXXX (lower case).
  function pyJson(value) {
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g,
      (ch) => "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0"));
  }
  // str() of a slot part, as Python writes it.
  const pyStr = (part) => part === true ? "True" : part === false ? "False" : part === null ? "None" : String(part);

  function* words(secret, sideSeeds, slot) {
    const key = utf8(secret);
    const base = pyJson([Array.from(sideSeeds), slot.map(pyStr)]);
    for (let counter = 0; ; counter++) {
      const digest = hmac(key, utf8(`${base}#${counter}`));
      const view = new DataView(digest.buffer);
      for (let i = 0; i < 32; i += 4) yield view.getUint32(i);
    }
  }

  function deriveInt(secret, sideSeeds, slot, upper) {
    const span = 2 ** 32, limit = span - (span % upper);
    for (const word of words(secret, sideSeeds, slot)) if (word < limit) return word % upper;
  }

  const deriveDie = (secret, sideSeeds, slot, faces = 6) => deriveInt(secret, sideSeeds, slot, faces) + 1;

  function deriveShuffle(secret, sideSeeds, slot, cards) {
    const order = Array.from(cards);
    for (let i = order.length - 1; i > 0; i--) {
      const j = deriveInt(secret, sideSeeds, [...slot, "swap", i], i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }

  const commitment = (secret) => hex(sha256(utf8(secret)));

  // Every drawn result of a verify answer (GET …/verify), derived again here.
  function verifyAll(report) {
    const checks = [];
    for (const r of report.results || []) {
      if (r.entered) { checks.push({ slot: r.slot, recorded: r.value, faces: r.faces || 6, entered: true, ok: true }); continue; }
      const derived = r.deck ? deriveShuffle(report.secret_seed, report.side_seeds, r.slot, r.deck)
                             : deriveDie(report.secret_seed, report.side_seeds, r.slot, r.faces || 6);
      checks.push({ slot: r.slot, recorded: r.value, faces: r.faces || 6, derived, entered: false,
                    ok: JSON.stringify(derived) === JSON.stringify(r.value) });
    }
    return checks;
  }

  global.StakesFairness = { sha256, hmac, hex, commitment, deriveInt, deriveDie, deriveShuffle, verifyAll };
})(window);
