/** The CI systems a pipeline is generated for (`terrace generate --ci`). */
export const CI_SYSTEMS = ['gitlab', 'github'] as const;
export type CiSystem = (typeof CI_SYSTEMS)[number];
