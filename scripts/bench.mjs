#!/usr/bin/env node
// `npm run bench`: the load benchmarks arrive with the production-readiness issue; nothing is measured yet.
console.info("no benchmarks yet");
