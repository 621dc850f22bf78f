"""The offline chat model, registered with the model seam by the chat app."""
