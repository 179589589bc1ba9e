import os

# OPERATOR_BEGIN outer
def outer():
    # OPERATOR_BEGIN inner
    return os.getcwd()
    # OPERATOR_END inner
# OPERATOR_END outer
