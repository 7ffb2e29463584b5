// The demo checkout: loads a card element and tokenizes it with the key typed into the page. No value ever reaches
// this script: it sees the change events (brand, last 4 once complete) and the token the API created.
(() => {
  const form = document.getElementById('checkout');
  const startButton = document.getElementById('start');
  const payment = document.getElementById('payment');
  const box = document.getElementById('card');
  const state = document.getElementById('card-state');
  const result = document.getElementById('result');
  let coffer = null;
  let card = null;

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
    startButton.disabled = true;
    try {
      coffer = await window.CofferElements.init(key, apiUrl ? { apiBaseUrl: apiUrl } : {});
      card = coffer.createElement('card', {
        style: {
          base: { color: '#1a1a1a', fontSize: '16px', '::placeholder': { color: '#6b6b6b' } },
          invalid: { color: '#b91c1c' },
          complete: { color: '#166534' },
        },
      });
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
      show('Card form loaded.');
    } catch (err) {
      showError(err);
    } finally {
      startButton.disabled = false;
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
