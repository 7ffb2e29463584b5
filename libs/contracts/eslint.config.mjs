import baseConfig from '../../eslint.config.mjs';

export default [
  ...baseConfig,
  {
    // every service loads these classes; @nestjs/swagger is the gateway's alone (src/openapi/property-docs.ts)
    files: ['**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/swagger',
              message: 'Document properties with ./openapi/property-docs (the gateway applies them through @nestjs/swagger); only type imports here.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
];
