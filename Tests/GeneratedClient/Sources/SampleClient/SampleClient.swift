// The generated client: `Client` and `Components` come from openapi.yaml.
