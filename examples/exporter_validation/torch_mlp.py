"""A small MLP for ``passcheck check-export`` (torch): x [batch, 16] → [batch, 4]."""

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
example_inputs = (torch.randn(4, 16),)
