/** A module that takes 3 s to evaluate: a worker program loading slowly on a busy machine. */
const started = Date.now();
while (Date.now() - started < 3000);
