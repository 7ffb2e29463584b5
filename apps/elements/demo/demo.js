// The demo checkout: loads a card element and tokenizes it with the key typed into the page. No value ever reaches
// this script: it sees the change events (brand, last 4 once complete) and the token the API created.
(() => {
  const form = document.getElementById('checkout');
  const startButton = document.getElementById('start');
  const payment = document.getElementById('payment');
  const box = document.getElementById('card');
  const state = document.getElementById('card-state');
  const result = document.getElementById('result');
  const split = document.getElementById('split');
  const splitState = document.getElementById('split-state');
  let coffer = null;
  let card = null;
  let fields = null;
  const style = {
    base: { color: '#1a1a1a', fontSize: '16px', '::placeholder': { color: '#6b6b6b' } },
    invalid: { color: '#b91c1c' },
    complete: { color: '#166534' },
  };

  const show = (value) => {
    result.textContent = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  };
  const showError = (err) => show({ name: err.name, message: err.message, status: err.status, data: err.data, details: err.details });

  startButton.addEventListener('click', async () => {
    const key = document.getElementById('api-key').value.trim();
    const apiUrl = document.getElementById('api-url').value.trim();
    if (!key) {
      show('Type an API key first.');
      return;
    }
    if (card) card.unmount();
    if (fields) Object.values(fields).forEach((el) => el.unmount());
    startButton.disabled = true;
    try {
      coffer = await window.CofferElements.init(key, apiUrl ? { apiBaseUrl: apiUrl } : {});
      card = coffer.createElement('card', { style });
      card.on('change', (e) => {
        box.classList.toggle('invalid', !e.valid);
        let text = e.cardBrand && e.cardBrand !== 'unknown' ? e.cardBrand : '';
        if (e.cardLast4) text += ` •••• ${e.cardLast4}`;
        if (e.errors.length) text += (text ? ' — ' : '') + e.errors.map((x) => `${x.targetId} ${x.type}`).join(', ');
        state.textContent = e.complete ? `Ready: ${text}` : text;
      });
      card.on('focus', () => box.classList.add('focused'));
      card.on('blur', () => box.classList.remove('focused'));
      card.on('keydown', (e) => {
        if (e.key === 'Enter') form.requestSubmit();
      });
      await card.mount('#card');
      payment.disabled = false;

      const number = coffer.createElement('cardNumber', { targetId: 'number', style });
      fields = {
        number,
        expiry: coffer.createElement('cardExpirationDate', { targetId: 'expiry', style }),
        cvc: coffer.createElement('cardVerificationCode', { targetId: 'cvc', style, cardNumberElement: number }),
        ssn: coffer.createElement('text', {
          targetId: 'ssn',
          style,
          placeholder: '123-45-6789',
          ariaLabel: 'Social security number',
          mask: [/\d/, /\d/, /\d/, '-', /\d/, /\d/, '-', /\d/, /\d/, /\d/, /\d/],
        }),
      };
      const states = {};
      for (const [name, el] of Object.entries(fields)) {
        el.on('change', (e) => {
          states[name] = e.complete ? 'complete' : e.empty ? 'empty' : e.valid ? 'incomplete' : 'invalid';
          if (e.cardBrand && e.cardBrand !== 'unknown') states[name] += ` (${e.cardBrand})`;
          splitState.textContent = Object.entries(states)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', ');
        });
        await el.mount(`#${name}`);
      }
      split.disabled = false;
      show('Card form loaded.');
    } catch (err) {
      showError(err);
    } finally {
      startButton.disabled = false;
    }
  });

  document.getElementById('pay-split').addEventListener('click', async () => {
    if (!coffer || !fields) return;
    show('Tokenizing…');
    try {
      const { number, expiry, cvc, ssn } = fields;
      show(
        await coffer.tokenize({
          card: {
            type: 'card',
            data: { number, expiration_month: expiry.month(), expiration_year: expiry.year(), cvc },
          },
          ssn: { type: 'social_security_number', data: ssn },
        }),
      );
    } catch (err) {
      showError(err);
    }
  });

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (!coffer || !card) return;
    show('Tokenizing…');
    try {
      show(await coffer.tokens.create({ type: 'card', data: card, metadata: { source: 'elements-demo' } }));
    } catch (err) {
      showError(err);
    }
  });
})();
