// Setup: the link's one-time token and a chosen password go to POST setup, which signs the user
// in; then the keys page. The password rule (12 to 128 characters) is checked here too, so the
// user hears about it before a round trip.
import { api, formErrors } from './dashboard.js';

const form = document.getElementById('setup-form');
const password = document.getElementById('new-password');
const repeat = document.getElementById('repeat-password');
const error = document.getElementById('setup-error');
const submit = form.querySelector('button[type="submit"]');
const token = new URLSearchParams(window.location.search).get('token');

if (!token) {
  error.textContent = 'This page needs the setup link you were given, with its token. '
    + 'Open the link again, or ask for a new one.';
  submit.disabled = true;
}

const errors = formErrors(error, [password, repeat]);

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  errors.clear();
  // Characters as people count them (code points), not UTF-16 units.
  const length = [...password.value].length;
  if (length < 12 || length > 128) {
    errors.report(length < 12
      ? `The password must have at least 12 characters; this one has ${length}.`
      : `The password must have at most 128 characters; this one has ${length}.`, password);
    return;
  }
  if (repeat.value !== password.value) {
    errors.report('The two passwords differ. Type the same password twice.', repeat);
    return;
  }
  submit.disabled = true;
  try {
    await api('setup', { method: 'POST', body: { token, password: password.value }, on401: 'throw' });
    // replace: the used link should not stay in the history.
    window.location.replace('/dashboard/keys');
  } catch (failure) {
    submit.disabled = false;
    error.textContent = failure.message;
  }
});
