"""A CNN with BatchNormalization for ``passcheck check-export`` (torch): x [batch, 3, 16, 16] → [batch, 10].
BatchNorm's running statistics are set away from (0, 1) so folding them wrong shows in the numbers."""

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 8, 3, padding=1),
    torch.nn.BatchNorm2d(8),
    torch.nn.ReLU(),
    torch.nn.MaxPool2d(2),
    torch.nn.Conv2d(8, 8, 3),
    torch.nn.BatchNorm2d(8),
    torch.nn.ReLU(),
    torch.nn.AdaptiveAvgPool2d(1),
    torch.nn.Flatten(),
    torch.nn.Linear(8, 10),
)
for m in model:
    if isinstance(m, torch.nn.BatchNorm2d):
        m.running_mean.uniform_(-0.5, 0.5)
        m.running_var.uniform_(0.5, 2.0)
example_inputs = (torch.randn(2, 3, 16, 16),)
