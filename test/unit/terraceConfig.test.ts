import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultOptions, parseAnalysisOptions } from '../../server/src/engine/config';

describe('.terrace.yaml', () => {
  test('an empty file gives the defaults', () => {
    assert.deepEqual(parseAnalysisOptions('', '.terrace.yaml'), defaultOptions());
  });

  test('reads the discovery section', () => {
    const options = parseAnalysisOptions(
      'discovery:\n  mode: pattern\n  pattern: "{service}/{env}"\n  exclude: ["sandbox/**"]\n  backendConfigFiles: ["*.tfbackend"]\n',
      '.terrace.yaml',
    );
    assert.deepEqual(options.discovery, {
      mode: 'pattern',
      pattern: '{service}/{env}',
      exclude: ['sandbox/**'],
      include: [],
      backendConfigFiles: ['*.tfbackend'],
      // Not a key of the file: only the editor turns it off, in a workspace not trusted.
      askGit: true,
    });
  });

  test('names the wrong key and what was expected', () => {
    assert.throws(() => parseAnalysisOptions('discovery:\n  mdoe: auto\n', 'x/.terrace.yaml'), {
      message:
        "x/.terrace.yaml: unknown key 'discovery.mdoe'; expected mode, pattern, exclude, include, backendConfigFiles or libraryModules",
    });
    assert.throws(() => parseAnalysisOptions('discovery:\n  mode: magic\n', 'c.yaml'), {
      message: "c.yaml: discovery.mode must be 'auto' or 'pattern', not 'magic'",
    });
    assert.throws(() => parseAnalysisOptions('discovery:\n  exclude: sandbox\n', 'c.yaml'), {
      message: 'c.yaml: discovery.exclude must be a list of strings',
    });
    assert.throws(() => parseAnalysisOptions('discovery: [\n', 'c.yaml'), /c\.yaml: /);
  });

  test('reads what CI passes to backends left empty, and refuses a value that is not text', () => {
    const options = parseAnalysisOptions('backendConfig:\n  key: "{name}/terraform.tfstate"\n', '.terrace.yaml');
    assert.deepEqual(options.backendConfig, { key: '{name}/terraform.tfstate' });
    assert.throws(() => parseAnalysisOptions('backendConfig:\n  key: [a]\n', 'c.yaml'), {
      message: 'c.yaml: backendConfig.key must be a string',
    });
  });
});
