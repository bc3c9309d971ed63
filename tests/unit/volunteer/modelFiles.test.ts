// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fitModel, type YearPoint } from '../../../server/volunteer/engine/calibrated.js';
import { fittedModelOf, modelFilesIn, modelYearsOf } from '../../../server/volunteer/modelFiles.js';

/**
 * The fitted models per as-of year (server/volunteer/modelFiles.ts): a server that has seen the years up to Y (its
 * newest line year, or ADMISSION_AS_OF=Y) gets the model fitted on those years only, never one that learnt from a
 * later year.
 */
const engineDir = new URL('../../../server/volunteer/engine/', import.meta.url);
const fileOf = (year: number) => JSON.parse(fs.readFileSync(new URL(`model-shandong-${year}.json`, engineDir), 'utf8'));

describe('the committed Shandong models', () => {
  const years = modelYearsOf('山东');

  it('exist for the as-of years 2025 and 2026 at least, listed in order', () => {
    expect(years).toEqual([...years].sort((a, b) => a - b));
    expect(years).toEqual(expect.arrayContaining([2025, 2026]));
  });

  it('give a server of each as-of year exactly the model fitted on the years up to it', () => {
    for (const y of years) {
      const model = fittedModelOf('山东', y);
      expect(model).toEqual(fileOf(y));
      // Trained on targets up to Y and including Y: nothing later, nothing of Y left out.
      expect(Math.max(...(model?.trainedOn ?? []))).toBe(y);
    }
  });

  it('gives ADMISSION_AS_OF=2025 the model that never saw 2026', () => {
    const model = fittedModelOf('山东', 2025);
    expect(model).toEqual(fileOf(2025));
    expect(model?.trainedOn.every((y) => y <= 2025)).toBe(true);
    expect(model).not.toEqual(fittedModelOf('山东', 2026));
  });

  it('keeps the newest model for a later year and has none before the first', () => {
    const newest = years[years.length - 1];
    expect(fittedModelOf('山东', newest + 2)).toBe(fittedModelOf('山东', newest));
    expect(fittedModelOf('山东', years[0] - 1)).toBeNull();
  });

  it('parses each file once: the same object on every call', () => {
    expect(fittedModelOf('山东', 2026)).toBe(fittedModelOf('山东', 2026));
  });

  it('has no model for a province without model files', () => {
    expect(modelYearsOf('湖北')).toEqual([]);
    expect(fittedModelOf('湖北', 2025)).toBeNull();
  });
});

describe('a folder of model files', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-files-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const cohorts = new Map([2021, 2022, 2023, 2024, 2025].map((y) => [y, 600_000]));
  const lines: YearPoint[][] = Array.from({ length: 50 }, (_, i) =>
    [2021, 2022, 2023, 2024, 2025].map((year) => ({ year, minRank: 1_000 * (i + 1) + ((year * 37 + i * 11) % 97), planCount: 10 })),
  );
  const upTo = (y: number) =>
    fitModel(
      lines.map((l) => l.filter((p) => p.year <= y)),
      [2022, 2023, 2024, 2025].filter((t) => t <= y),
      cohorts,
    );
  fs.writeFileSync(path.join(dir, 'model-test-2023.json'), JSON.stringify(upTo(2023)));
  fs.writeFileSync(path.join(dir, 'model-test-2025.json'), JSON.stringify(upTo(2025)));
  // A file named for 2024 that learnt from 2025: must be refused, not served to a 2024 server.
  fs.writeFileSync(path.join(dir, 'model-test-2024.json'), JSON.stringify(upTo(2025)));
  fs.writeFileSync(path.join(dir, 'other-2022.json'), JSON.stringify(upTo(2023)));
  const files = modelFilesIn(dir, { 测试省: 'model-test' });

  it('lists only the province’s own files', () => {
    expect(files.modelYearsOf('测试省')).toEqual([2023, 2024, 2025]);
  });

  it('picks the newest as-of year not after the one asked for', () => {
    expect(files.fittedModelOf('测试省', 2023)?.trainedOn).toEqual([2022, 2023]);
    expect(files.fittedModelOf('测试省', 2025)?.trainedOn).toEqual([2022, 2023, 2024, 2025]);
    expect(files.fittedModelOf('测试省', 2030)).toBe(files.fittedModelOf('测试省', 2025));
    expect(files.fittedModelOf('测试省', 2022)).toBeNull();
  });

  it('refuses a model that learnt from a year after its as-of year', () => {
    expect(() => files.fittedModelOf('测试省', 2024)).toThrow(/2025.*晚于其截至年份 2024/);
  });
});
