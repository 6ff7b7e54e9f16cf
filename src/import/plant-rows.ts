import { isPlantsError } from '../core/errors.js';
import { parseJson } from '../core/json.js';
import { readPlantJson } from '../core/plant-json.js';
import type { NewPlant } from '../core/schemas.js';
import { parseNewPlantText } from '../core/new-plant.js';
import type { Row } from './row.js';
import { csvRaw, failedRow, notJsonRow, type RowReader } from './rows.js';

/** The rows of an import: each a NewPlant, checked as the service checks a body. */
export const PLANT_ROWS: RowReader<NewPlant> = {
  json(text, at): Row<NewPlant> {
    const reading = readPlantJson(text);
    if (reading.plant !== undefined) return { at, value: reading.plant, id: reading.plant.id };
    if (reading.notJson !== undefined) return notJsonRow(at, text, reading.notJson);
    // Kept as the row was, for --rejects; its id, when that is readable, for the report.
    return failedRow(at, parseJson(text), reading.invalid);
  },
  columns: { required: ['id', 'name'], optional: ['tag'] },
  csv(cells, at): Row<NewPlant> {
    // An empty tag cell is no tag: CSV cannot tell an empty tag from none (README, Validation).
    const fields = { id: cells.id, name: cells.name, tag: cells.tag || undefined };
    try {
      const plant = parseNewPlantText(fields);
      return { at, value: plant, id: plant.id };
    } catch (error) {
      if (!isPlantsError(error)) throw error;
      return failedRow(at, csvRaw(cells), error);
    }
  },
};
