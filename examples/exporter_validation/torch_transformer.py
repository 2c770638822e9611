"""One ``nn.TransformerEncoderLayer`` for ``passcheck check-export`` (torch): x [batch, 6, 32] → same shape."""

import torch

torch.manual_seed(0)
model = torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)
example_inputs = (torch.randn(2, 6, 32),)
