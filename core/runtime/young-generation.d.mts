/** core/runtime/young-generation.mjs: the speaker's small young generation (see there). */
export function keepYoungGenerationSmall(): void;
export function keepProcessYoungGeneration(): void;
