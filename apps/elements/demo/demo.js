// The demo checkout: loads a card element and tokenizes it with the key typed into the page. No value ever reaches
// this script: it sees the change events (brand, last 4 once complete) and the token the API created.
(function () {
  'use strict';
  var form = document.getElementById('checkout');
  var startButton = document.getElementById('start');
  var payment = document.getElementById('payment');
  var box = document.getElementById('card');
  var state = document.getElementById('card-state');
  var result = document.getElementById('result');
  var coffer = null;
  var card = null;

  function show(value) {
    result.textContent = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  }

  startButton.addEventListener('click', function () {
    var key = document.getElementById('api-key').value.trim();
    var apiUrl = document.getElementById('api-url').value.trim();
    if (!key) {
      show('Type an API key first.');
      return;
    }
    if (card) card.unmount();
    startButton.disabled = true;
    window.CofferElements.init(key, apiUrl ? { apiBaseUrl: apiUrl } : {})
      .then(function (instance) {
        coffer = instance;
        card = coffer.createElement('card', {
          style: {
            base: { color: '#1a1a1a', fontSize: '16px', '::placeholder': { color: '#6b6b6b' } },
            invalid: { color: '#b91c1c' },
            complete: { color: '#166534' },
          },
        });
        card.on('change', function (e) {
          box.classList.toggle('invalid', !e.valid);
          var text = e.cardBrand && e.cardBrand !== 'unknown' ? e.cardBrand : '';
          if (e.cardLast4) text += ' •••• ' + e.cardLast4;
          if (e.errors.length) text += (text ? ' — ' : '') + e.errors.map(function (x) { return x.targetId + ' ' + x.type; }).join(', ');
          state.textContent = e.complete ? 'Ready: ' + text : text;
        });
        card.on('focus', function () { box.classList.add('focused'); });
        card.on('blur', function () { box.classList.remove('focused'); });
        card.on('keydown', function (e) { if (e.key === 'Enter') form.requestSubmit(); });
        return card.mount('#card');
      })
      .then(function () {
        payment.disabled = false;
        show('Card form loaded.');
      })
      .catch(function (err) {
        show({ name: err.name, message: err.message, status: err.status, data: err.data });
      })
      .then(function () {
        startButton.disabled = false;
      });
  });

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    if (!coffer || !card) return;
    show('Tokenizing…');
    coffer.tokens
      .create({ type: 'card', data: card, metadata: { source: 'elements-demo' } })
      .then(show)
      .catch(function (err) {
        show({ name: err.name, message: err.message, status: err.status, data: err.data, details: err.details });
      });
  });
})();
