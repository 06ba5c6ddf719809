"""titles/g1849/rules"""
