// jest's node environment, plus one door out of jest's module system: `__contractValidator()` loads
// test/support/contract-validator.cjs with Node's own require (openapi-backend needs an ES module that jest on
// Node 20 cannot require). Node caches it, so each worker compiles the document once, not each test file.
'use strict';
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

class ScopaTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const file = path.join(config.projectConfig.rootDir, 'test/support/contract-validator.cjs');
    this.global.__contractValidator = () => require(file);
  }
}

module.exports = ScopaTestEnvironment;
