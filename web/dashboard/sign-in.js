// Sign-in: POST session with the e-mail and password; on success the keys page. The server's
// sentence is shown as it is (401 `Incorrect e-mail or password`, 429 while throttled).
import { api, ApiError, formErrors } from './dashboard.js';

const form = document.getElementById('sign-in-form');
const email = document.getElementById('email');
const password = document.getElementById('password');
const error = document.getElementById('sign-in-error');
const submit = form.querySelector('button[type="submit"]');

const errors = formErrors(error, [email, password]);

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  errors.clear();
  if (email.value.trim() === '' || password.value === '') {
    errors.report('Enter your e-mail address and your password.',
      email.value.trim() === '' ? email : password);
    return;
  }
  submit.disabled = true;
  try {
    await api('session', {
      method: 'POST', body: { email: email.value.trim(), password: password.value }, on401: 'throw',
    });
    window.location.assign('/dashboard/keys');
  } catch (failure) {
    submit.disabled = false;
    let sentence = failure.message;
    if (failure instanceof ApiError && failure.status === 429) {
      const wait = Number(failure.response?.headers.get('Retry-After'));
      if (Number.isFinite(wait) && wait > 0) {
        sentence += ` Try again in ${formatWait(wait)}.`;
      }
    }
    error.textContent = sentence;
    password.value = '';
    password.focus();
  }
});

function formatWait(seconds) {
  if (seconds < 90) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
