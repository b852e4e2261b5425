// The add-on's thread (thread-realm.ts): TypeScript is not transformed inside worker threads
// (neither jest nor tsx does it there), so register tsx's loader first, then run the
// TypeScript half.
const {register} = require('tsx/cjs/api');
const {workerData} = require('node:worker_threads');

register();
require('./thread-main.ts').serve(workerData);
